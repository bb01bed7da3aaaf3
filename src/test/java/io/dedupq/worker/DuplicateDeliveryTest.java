package io.dedupq.worker;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.Skips;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Copies of one task that reach workers more than once run once; the rest are dropped and
 * counted by their reason: done (the task finished: its done marker), locked (it runs right
 * now: its lock) or stale (an earlier attempt than the task's: RetryAndFailureTest).
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class DuplicateDeliveryTest {

    private static final String QUEUE = "flaky";

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    @Inject
    FlakyHandler handler;

    @Test
    void sameEnvelopePushedFiveTimesRunsOnceAndCountsFourDuplicates() {
        String id = uniqueId("five");
        Skips before = Skips.of(QUEUE);
        Request push = Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE)));
        for (int i = 0; i < 5; i++) {
            push.arg(Envelopes.flaky(id, 0));
        }
        redis.send(push);

        awaitStatus(id, "succeeded");
        // copies claimed while the first runs are dropped as locked, those claimed after it finished as done
        before.awaitDoneOrLocked(4);
        assertEquals(1, handler.executions(id).size(), "the task ran once");
        assertEquals(0, redis.send(Request.cmd(Command.LLEN).arg(keys.pending(whole(QUEUE)))).toLong());
    }

    @Test
    void aDuplicateArrivingAfterTheTaskSucceededIsDroppedAsDone() {
        String id = uniqueId("after");
        redis.send(Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE))).arg(Envelopes.flaky(id, 0)));
        awaitStatus(id, "succeeded");
        DedupRecords records = new DedupRecords(keys, whole(QUEUE), (key, field) -> text(Request.cmd(Command.HGET).arg(key).arg(field)));
        assertEquals("succeeded", records.outcome(id),
                "a task that succeeded leaves its dedup record, which makes every later copy drop as done");
        Skips before = Skips.of(QUEUE);

        redis.send(Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE))).arg(Envelopes.flaky(id, 0)));

        before.awaitDropped(1, 0, 0);
        assertEquals(1, handler.executions(id).size(), "a duplicate arriving after completion never runs");
        assertEquals(0, redis.send(Request.cmd(Command.LLEN).arg(keys.pending(whole(QUEUE)))).toLong());
    }

    @Test
    void aDuplicateArrivingWhileTheTaskRunsIsDroppedAsLocked() {
        String id = uniqueId("during");
        redis.send(Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE))).arg(Envelopes.flakySleeping(id, 1_500)));
        await().alias("the first copy started").atMost(Duration.ofSeconds(10))
                .until(() -> handler.executions(id).size() == 1);
        Skips before = Skips.of(QUEUE);

        redis.send(Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE))).arg(Envelopes.flakySleeping(id, 1_500)));

        before.awaitDropped(0, 1, 0);
        awaitStatus(id, "succeeded");
        assertEquals(1, handler.executions(id).size(), "a duplicate arriving while the task runs never runs");
    }

    @Test
    void copyOfDeadWorkerAndDuplicateInPendingRunOnce() {
        String id = uniqueId("ghost");
        String ghost = "ghost-" + id;
        String envelope = Envelopes.flaky(id, 0);
        // a worker took the task, locked it and died: its heartbeat is long expired
        redis.send(Request.cmd(Command.ZADD).arg(keys.workers(whole(QUEUE))).arg(1).arg(ghost));
        redis.send(Request.cmd(Command.SET).arg(keys.lock(whole(QUEUE), id)).arg(ghost + ":1").arg("PX").arg(60_000));
        redis.send(Request.cmd(Command.LPUSH).arg(keys.processing(whole(QUEUE), ghost)).arg(envelope));
        // and the producer redelivered it
        redis.send(Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE))).arg(envelope));

        awaitStatus(id, "succeeded");
        await().atMost(Duration.ofSeconds(5)).until(() ->
                redis.send(Request.cmd(Command.LLEN).arg(keys.processing(whole(QUEUE), ghost))).toLong() == 0);
        assertEquals(1, handler.executions(id).size());
        assertTrue(redis.send(Request.cmd(Command.EXISTS).arg(keys.lock(whole(QUEUE), id))).toLong() == 0,
                "no lock is left behind");
    }

    private String text(Request request) {
        Response reply = redis.send(request);
        return reply == null ? null : reply.toString();
    }

    @Test
    void poisonEntryIsDeadLetteredAndTheWorkerGoesOn() {
        long deadBefore = stat(QUEUE, "dead");
        long unparseableBefore = stat(QUEUE, "unparseable");
        String id = uniqueId("after-poison");
        redis.send(Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE))).arg("{not json at all")
                .arg("[1,2,3]").arg("{\"id\":\"bad id with spaces\",\"type\":\"flaky\"}"));
        redis.send(Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE))).arg(Envelopes.flaky(id, 0)));

        awaitStatus(id, "succeeded");
        await().atMost(Duration.ofSeconds(5)).until(() -> stat(QUEUE, "dead") - deadBefore == 3);
        assertEquals(3, stat(QUEUE, "unparseable") - unparseableBefore);
        String newest = redis.send(Request.cmd(Command.LRANGE).arg(keys.dead(whole(QUEUE))).arg(0).arg(2)).toString();
        assertTrue(newest.contains("unparseable envelope"), newest);
        assertTrue(newest.contains("{not json at all"), "the entry is kept as it was: " + newest);
    }
}
