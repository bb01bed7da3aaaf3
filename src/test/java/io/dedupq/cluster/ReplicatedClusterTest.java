package io.dedupq.cluster;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.post;
import static io.dedupq.support.Api.task;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.RedisProcess;
import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.PartedHandler;
import io.dedupq.support.Partitions;
import io.dedupq.support.RedisCli;
import io.dedupq.support.RedisCluster;
import io.dedupq.support.RedisClusterTestResource;
import io.dedupq.support.Scrape;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code dedupq.durability.replicas=1} on a Redis Cluster whose three masters have a replica
 * each: the WAIT after a script goes to the master that ran it, so it counts that master's
 * replica and no other. With one master's replica killed (SIGKILL), enqueues to that master's
 * partition answer 503 not-replicated every time while those to another master's partition are
 * acknowledged and run, before and after those refusals; once the replica is started again, the
 * first master's are acknowledged too.
 * <p>
 * The other master's partition takes tasks at once after the kill, long before the cluster flags
 * the dead replica as failed ({@code cluster-node-timeout}, 5 s here): each command goes to the
 * master of its slot alone (ClusterRouter). The Vert.x cluster client failed every command until
 * then, since it takes a connection to every node, replicas included.
 */
@QuarkusTest
@TestProfile(ReplicatedClusterTest.OneReplicaEach.class)
class ReplicatedClusterTest {

    private static final String TYPE = PartedHandler.TYPE;

    public static class OneReplicaEach implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dedupq.durability.replicas", "1", "dedupq.durability.replica-timeout", "500ms");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(RedisClusterTestResource.class, Map.of("replicas", "1")));
        }
    }

    @Inject
    RedisKeys keys;

    @Inject
    QueuePartitions partitions;

    @Inject
    FlakyHandler handler;

    @Test
    void eachMasterWaitsForItsOwnReplica() {
        RedisCluster cluster = RedisClusterTestResource.cluster();
        List<Partition> parted = partitions.of(TYPE);
        Partition cut = parted.get(0);
        RedisProcess master = cluster.nodeOf(keys.pending(cut));
        Partition elsewhere = parted.stream().filter(p -> cluster.nodeOf(keys.pending(p)) != master).findFirst()
                .orElseThrow();

        runsOnce(idOn(cut));

        RedisProcess replica = cluster.replicaOf(master);
        replica.kill();
        try {
            String first = idOn(elsewhere);
            assertEquals(202, post(task(first, TYPE, flaky(0))), "another master's partition takes tasks at once");
            assertFalse(flaggedFailed(master, replica), "so soon after the kill the cluster has not flagged the replica yet");
            awaitStatus(first, "succeeded");
            double unreplicatedBefore = Scrape.now().value("dedupq_redis_writes_unreplicated_total");
            for (int i = 0; i < 3; i++) {
                given().contentType(ContentType.JSON).body(task(idOn(cut), TYPE, flaky(0))).post("/api/tasks").then()
                        .statusCode(503).body("type", equalTo("urn:dedupq:problem:not-replicated"));
            }
            assertTrue(Scrape.now().value("dedupq_redis_writes_unreplicated_total") - unreplicatedBefore >= 3,
                    "each enqueue its replica did not acknowledge is counted");
            runsOnce(idOn(elsewhere));
        } finally {
            replica.start();
        }

        AtomicReference<String> accepted = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            accepted.set(idOn(cut));
            return post(task(accepted.get(), TYPE, flaky(0))) == 202;
        });
        awaitStatus(accepted.get(), "succeeded");
        assertEquals(1, handler.executions(accepted.get()).size(), "ran once");
    }

    private static boolean flaggedFailed(RedisProcess master, RedisProcess replica) {
        return RedisCli.run(master.port(), "cluster", "nodes").lines()
                .anyMatch(line -> line.contains(":" + replica.port() + "@") && line.contains("fail"));
    }

    /** Enqueued (acknowledged by the replica of its master), it runs and succeeds, once. */
    private void runsOnce(String id) {
        assertEquals(202, post(task(id, TYPE, flaky(0))), id);
        awaitStatus(id, "succeeded");
        assertEquals(1, handler.executions(id).size(), id + " ran once");
    }

    private String idOn(Partition partition) {
        return Partitions.idOn(partitions, TYPE, partition, "replicated");
    }
}
