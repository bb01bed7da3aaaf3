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
import io.dedupq.support.DedupRecords;
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
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * {@code dedupq.durability.replicas=1} covers the worker's calls too. The replicas are cut off
 * from the master: stopped (SIGSTOP) and their links killed (CLIENT KILL TYPE replica), since a
 * stopped process's socket still takes in what the master sends, and it would apply that once
 * resumed. Each test works on the group as the sentinel names it now (the other may have failed
 * it over already).
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

    private final RedisSentinelGroup group = RedisSentinelTestResource.group();

    /**
     * The master records a task's outcome that no replica receives, then dies (SIGKILL); the
     * replica the sentinel promotes still has the task running, its lock held, its copy in the
     * worker's processing list. The owner never had the outcome acknowledged, so it sends it
     * again to the new master: the task ends succeeded, its handler ran once, and once a call
     * carrying the outcome is acknowledged the slot it held takes the next task.
     */
    @Test
    void anOutcomeNoReplicaReceivedIsRecordedOnTheNewMasterAndTheTaskRunsOnce() {
        List<RedisProcess> replicas = replicasInSync();
        RedisProcess master = group.currentMaster();
        String id = uniqueId("outcome");
        String hash = keys.task(QUEUE, id);
        assertEquals(202, post(task(id, BlockingHandler.TYPE, Map.of())));
        await().atMost(Duration.ofSeconds(20)).until(() -> handler.running(id));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> replicas.stream().allMatch(replica -> "running".equals(status(replica.port(), hash))));

        cutOff(master, replicas);
        handler.release(id);
        await().atMost(Duration.ofSeconds(10)).until(() -> "succeeded".equals(status(master.port(), hash)));

        master.kill();
        replicas.forEach(RedisProcess::resume);
        for (RedisProcess replica : replicas) {
            // read at once: the sentinel waits a second before it calls the master down
            assertEquals("running", status(replica.port(), hash), "the outcome reached no replica");
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> group.currentMasterPort() != master.port());

        awaitSucceededOnce(id);
        int newMaster = group.currentMasterPort();
        assertEquals("0", RedisCli.run(newMaster, "exists", keys.lock(QUEUE, id)).trim(), "no lock is left");
        String bucket = new DedupRecords(keys, QUEUE, (key, field) -> RedisCli.run(newMaster, "hget", key, field).trim()).bucket(id);
        assertEquals("1", RedisCli.run(newMaster, "hexists", bucket, id).trim(), "the dedup record is there");

        // the queue's one slot frees once a call carrying the outcome was acknowledged: then the next task starts
        String next = uniqueId("next");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> List.of(202, 200).contains(submit(task(next, BlockingHandler.TYPE, Map.of())).statusCode()));
        await().atMost(Duration.ofSeconds(30)).until(() -> handler.running(next));
        handler.release(next);
        assertEquals(1, handler.executions(id), "the handler still ran once");
    }

    /**
     * A claim no replica acknowledged does not start (a failover could give the task to another
     * worker): the owner requeues it and claims it again, over and over, without running it;
     * once the replicas are back, a claim is acknowledged and the task runs, once.
     */
    @Test
    void aClaimNoReplicaAcknowledgedDoesNotStartUntilOneDoes() {
        List<RedisProcess> replicas = replicasInSync();
        RedisProcess master = group.currentMaster();
        cutOff(master, replicas);
        String id = uniqueId("claim");
        assertEquals(503, post(task(id, BlockingHandler.TYPE, Map.of())), "the enqueue was not replicated either");
        // attempts counts claims: a second one means the first was requeued without running
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .failFast("a claim no replica acknowledged started the task", () -> handler.executions(id) > 0).until(
                () -> Integer.parseInt(RedisCli.run(master.port(), "hget", keys.task(QUEUE, id), "attempts").trim()) >= 2);
        assertEquals(0, handler.executions(id), "no claim started it");

        replicas.forEach(RedisProcess::resume);
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> handler.running(id));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("the task did not start once the replicas were back; " + where(id), e);
        }
        handler.release(id);
        awaitSucceededOnce(id);
    }

    /** Where the task stands on the master the sentinel names now: for a failure to say why. */
    private String where(String id) {
        int port = group.currentMasterPort();
        StringBuilder state = new StringBuilder("master ").append(port).append(": task ")
                .append(RedisCli.run(port, "hgetall", keys.task(QUEUE, id)).replace('\n', ' '))
                .append("| lock ").append(RedisCli.run(port, "get", keys.lock(QUEUE, id)).trim())
                .append(" | pending ").append(RedisCli.run(port, "lrange", keys.pending(QUEUE), "0", "-1").replace('\n', ' '));
        String processing = keys.processing(QUEUE, "*");
        for (String list : RedisCli.run(port, "--scan", "--pattern", processing).lines().toList()) {
            state.append("| ").append(list).append(' ').append(RedisCli.run(port, "lrange", list, "0", "-1").replace('\n', ' '));
        }
        return state.append("| ").append(RedisCli.run(port, "info", "replication").replace("\r\n", " ")).toString();
    }

    /** Waits until the API reads the task succeeded, and counts its handler's runs. */
    private void awaitSucceededOnce(String id) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> "succeeded".equals(given().get("/api/tasks/" + id).jsonPath().getString("status")));
        assertEquals(1, handler.executions(id), "the handler ran once");
    }

    /**
     * The current master's replicas, once each has its link to it up. Master and replicas are read
     * again at each poll: after the last test's failover the sentinel may still be moving them (a
     * second failover was seen, whose new master had been in the first list of replicas).
     */
    private List<RedisProcess> replicasInSync() {
        AtomicReference<List<RedisProcess>> replicas = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            String following = "master_port:" + group.currentMasterPort();
            replicas.set(group.currentReplicas());
            return replicas.get().stream().map(replica -> RedisCli.run(replica.port(), "info", "replication"))
                    .map(info -> info.lines().map(String::trim).toList())
                    .allMatch(lines -> lines.contains(following) && lines.contains("master_link_status:up"));
        });
        return replicas.get();
    }

    /** The replicas stop taking the master's stream: stopped, and their links killed. */
    private static void cutOff(RedisProcess master, List<RedisProcess> replicas) {
        replicas.forEach(RedisProcess::pause);
        RedisCli.run(master.port(), "client", "kill", "type", "replica");
    }

    private static String status(int port, String hash) {
        return RedisCli.run(port, "hget", hash, "status").trim();
    }
}
