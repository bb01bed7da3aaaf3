package io.dedupq.sentinel;

import static io.dedupq.support.Api.post;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.config.RedisProcess;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.BlockingHandler;
import io.dedupq.support.RedisCli;
import io.dedupq.support.RedisSentinelGroup;
import io.dedupq.support.RedisSentinelTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code dedupq.durability.replicas=1} covers the worker's outcomes too: the master records a
 * task's outcome that no replica receives, then dies (SIGKILL), and the replica the sentinel
 * promotes still has the task running, its lock held, its copy in the worker's processing list.
 * The owner never had that outcome acknowledged by a replica, so it sends it again to the new
 * master: the task ends succeeded, its handler ran once, and once a call carrying the outcome
 * is acknowledged the slot it held takes the next task.
 */
@QuarkusTest
@TestProfile(ReplicatedOutcomeFailoverTest.OneReplica.class)
class ReplicatedOutcomeFailoverTest {

    /** The enqueue test's settings, with an app and a sentinel group of its own: each test kills its master. */
    public static class OneReplica extends ReplicatedEnqueueFailoverTest.OneReplica {
    }

    private static final Partition QUEUE = whole(BlockingHandler.TYPE);

    @Inject
    BlockingHandler handler;

    @Inject
    RedisKeys keys;

    @Test
    void anOutcomeNoReplicaReceivedIsRecordedOnTheNewMasterAndTheTaskRunsOnce() {
        RedisSentinelGroup group = RedisSentinelTestResource.group();
        String id = uniqueId("outcome");
        String hash = keys.task(QUEUE, id);
        assertEquals(202, post(task(id, BlockingHandler.TYPE, Map.of())));
        await().atMost(Duration.ofSeconds(20)).until(() -> handler.running(id));
        await().atMost(Duration.ofSeconds(10)).until(() -> group.replicas().stream()
                .allMatch(replica -> "running".equals(status(replica.port(), hash))));

        // the replicas stop taking the master's stream: paused, and cut off, since a paused process's
        // socket still takes in what the master sends, which it would apply once resumed
        group.replicas().forEach(RedisProcess::pause);
        RedisCli.run(group.master().port(), "client", "kill", "type", "replica");
        handler.release(id);
        await().atMost(Duration.ofSeconds(10)).until(() -> "succeeded".equals(status(group.master().port(), hash)));

        group.master().kill();
        group.replicas().forEach(RedisProcess::resume);
        for (RedisProcess replica : group.replicas()) {
            // read at once: the sentinel waits a second before it calls the master down
            assertEquals("running", status(replica.port(), hash), "the outcome reached no replica");
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(group::failedOver);

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> "succeeded".equals(given().get("/api/tasks/" + id).jsonPath().getString("status")));
        assertEquals(1, handler.executions(id), "the handler ran once");
        int master = group.currentMasterPort();
        assertEquals("0", RedisCli.run(master, "exists", keys.lock(QUEUE, id)).trim(), "no lock is left");
        assertEquals("1", RedisCli.run(master, "exists", keys.done(QUEUE, id)).trim(), "the done marker is there");

        // the queue's one slot frees once a call carrying the outcome was acknowledged: then the next task starts
        String next = uniqueId("next");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> List.of(202, 200).contains(submit(task(next, BlockingHandler.TYPE, Map.of())).statusCode()));
        await().atMost(Duration.ofSeconds(30)).until(() -> handler.running(next));
        handler.release(next);
        assertEquals(1, handler.executions(id), "the handler still ran once");
    }

    private static String status(int port, String hash) {
        return RedisCli.run(port, "hget", hash, "status").trim();
    }
}
