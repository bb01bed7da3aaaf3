package io.dedupq.metrics;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.openAccount;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Api;
import io.dedupq.support.BlockingHandler;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.LockLossProbe;
import io.dedupq.support.LongRunningHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.Scrape;
import io.dedupq.support.SlowRetryHandler;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * Real work through the app, then /q/metrics: every counter, timer and gauge moves by exactly
 * what happened. Deltas are taken around each action, so the other tests of the class do not
 * matter.
 */
@QuarkusTest
@TestProfile(MetricsTest.FastGauges.class)
@WithTestResource(RedisTestResource.class)
class MetricsTest {

    private static final String FLAKY = "flaky";

    /**
     * Gauges read every 200 ms, for this class alone: in the shared test app the reads would go
     * through the Redis guard so often that a test which stops Redis opens its breaker, and the
     * next class's first API call gets 503.
     */
    public static class FastGauges implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dedupq.metrics.refresh-interval", "200ms");
        }
    }

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @Inject
    BlockingHandler blocking;

    @Inject
    FlakyHandler flaky;

    @Inject
    LockLossProbe probe;

    @Test
    void outcomesOfRealTasksMoveTheirCountersAndTimers() {
        Scrape before = Scrape.now();
        List<String> retriedOnce = List.of(uniqueId("m-retry"), uniqueId("m-retry"), uniqueId("m-retry"));
        retriedOnce.forEach(id -> assertEquals(202, Api.post(task(id, FLAKY, flaky(1)))));
        String refused = uniqueId("m-permanent");
        assertEquals(202, Api.post(task(refused, FLAKY, Map.of("failures", 0, "permanent", true))));
        assertEquals(200, Api.post(task(refused, FLAKY, Map.of("failures", 0, "permanent", true))), "duplicate");

        retriedOnce.forEach(id -> awaitStatus(id, "succeeded"));
        awaitStatus(refused, "failed");

        Scrape after = Scrape.now();
        Delta d = new Delta(before, after, "queue", FLAKY, "type", FLAKY);
        assertEquals(4, d.of("dedupq_tasks_enqueued_total"), "a duplicate submission is not enqueued");
        assertEquals(7, d.of("dedupq_tasks_executed_total"), "3 x 2 attempts + 1");
        assertEquals(3, d.of("dedupq_tasks_retried_total"));
        assertEquals(3, d.of("dedupq_tasks_succeeded_total"));
        assertEquals(1, d.of("dedupq_tasks_failed_total"));
        assertEquals(1, d.of("dedupq_tasks_dead_lettered_total"));
        assertEquals(7, d.of("dedupq_handler_duration_seconds_count"), "every handler call is timed");
        assertEquals(4, d.of("dedupq_tasks_start_latency_seconds_count"), "first attempts only");
    }

    @Test
    void aBatchCountsItsAcceptedTasksPerQueueAndType() {
        Scrape before = Scrape.now();
        String known = uniqueId("m-batch");
        assertEquals(202, Api.post(task(known, FLAKY, flaky(0))));
        String slow = SlowRetryHandler.TYPE;

        assertEquals(200, Api.submitBatch(List.of(task(uniqueId("m-batch"), FLAKY, flaky(0)), task(known, FLAKY, flaky(0)),
                task(uniqueId("m-batch"), FLAKY, flaky(0)), task(uniqueId("m-batch"), slow, flaky(0)),
                task(uniqueId("m-batch"), FLAKY, flaky(0)))).statusCode());

        Scrape after = Scrape.now();
        assertEquals(1 + 3, new Delta(before, after, "queue", FLAKY, "type", FLAKY).of("dedupq_tasks_enqueued_total"),
                "the single one, and the batch's three new ones of its two runs; not the duplicate");
        assertEquals(1, new Delta(before, after, "queue", slow, "type", slow).of("dedupq_tasks_enqueued_total"));
    }

    @Test
    void duplicatesDroppedByClaimAreCountedByTypeAndReasonAndUnparseableEntriesAsUnknown() {
        String done = uniqueId("m-done");
        assertEquals(202, Api.post(task(done, FLAKY, flaky(0))));
        awaitStatus(done, "succeeded");
        String locked = uniqueId("m-locked");
        // another copy of this id is running somewhere: its lock is held
        redis.set(keys.lock(whole(FLAKY), locked), "someone-else:1", 60_000);
        String stale = uniqueId("m-stale");
        // the task has moved on to its second attempt: a copy of the first is stale
        redis.hset(keys.task(whole(FLAKY), stale), "id", stale, "type", FLAKY, "queue", FLAKY, "status", "retrying",
                "attempt", "1");
        awaitReported("dedupq_queue_duplicates_skipped", "queue", FLAKY, "reason", "done");
        Scrape before = Scrape.now();
        double doneBefore = gaugeNow("dedupq_queue_duplicates_skipped", "queue", FLAKY, "reason", "done");

        // a producer pushes copies straight onto the list, and something that is no envelope at all
        redis.lpush(keys.pending(whole(FLAKY)), Envelopes.flaky(done, 0), Envelopes.flaky(locked, 0), Envelopes.flaky(stale, 0),
                "not an envelope");

        await().atMost(Duration.ofSeconds(20)).until(() -> redis.llen(keys.pending(whole(FLAKY))) == 0
                && new Delta(before, Scrape.now(), "queue", FLAKY).of("dedupq_duplicates_skipped_total") == 3);
        Scrape after = Scrape.now();
        for (String reason : List.of("done", "locked", "stale")) {
            assertEquals(1, new Delta(before, after, "queue", FLAKY, "type", FLAKY, "reason", reason)
                    .of("dedupq_duplicates_skipped_total"), reason);
        }
        assertEquals(3, new Delta(before, after, "queue", FLAKY).of("dedupq_duplicates_skipped_total"));
        assertEquals(1, new Delta(before, after, "queue", FLAKY, "type", "unknown").of("dedupq_tasks_dead_lettered_total"));
        assertEquals(0, new Delta(before, after, "queue", FLAKY, "type", FLAKY).of("dedupq_tasks_executed_total"),
                "no copy ran");
        // the whole-queue gauge still reads the stats hash
        await().atMost(Duration.ofSeconds(10)).until(
                () -> gaugeNow("dedupq_queue_duplicates_skipped", "queue", FLAKY, "reason", "done") == doneBefore + 1);
        assertEquals(1, flaky.executions(done).size());
        assertEquals(0, flaky.executions(locked).size());
        assertEquals(0, flaky.executions(stale).size());
    }

    @Test
    void anOutcomeRefusedBecauseANewerExecutionOwnsTheTaskIsALostLock() {
        String id = uniqueId("m-lost");
        Scrape before = Scrape.now();
        assertEquals(202, Api.post(task(id, FLAKY, Map.of("failures", 0, "sleepMillis", 1500))));
        await().atMost(Duration.ofSeconds(20)).until(() -> flaky.executions(id).size() == 1);
        // while the handler runs, a newer execution takes the task over (as after a lock expiry)
        redis.hset(keys.task(whole(FLAKY), id), "token", "someone-else:1");

        await().atMost(Duration.ofSeconds(20)).until(() -> new Delta(before, Scrape.now(), "queue", FLAKY,
                "type", FLAKY, "detected_by", "complete").of("dedupq_locks_lost_total") == 1);
        Scrape after = Scrape.now();
        assertEquals(1, new Delta(before, after, "queue", FLAKY).of("dedupq_locks_lost_total"),
                "the watchdog saw nothing: the lock itself stayed ours");
        assertEquals(0, new Delta(before, after, "queue", FLAKY, "type", FLAKY).of("dedupq_tasks_succeeded_total"));
    }

    @Test
    void theWatchdogCountsTheExtensionsItMadeAndTheLockItFoundTaken() {
        String queue = LongRunningHandler.TYPE;
        String id = uniqueId("m-watched");
        Scrape before = Scrape.now();
        // 3 s lock TTL (test profile): a handler of 8 s needs the watchdog's extensions
        assertEquals(202, Api.post(task(id, queue, Map.of("failures", 0, "sleepMillis", 8000))));
        await().atMost(Duration.ofSeconds(20)).until(() -> new Delta(before, Scrape.now(), "queue", queue,
                "type", queue).of("dedupq_locks_extended_total") >= 2);

        // another holder takes the lock: the next extension is refused and counted as lost
        redis.set(keys.lock(whole(queue), id), "someone-else:1", 60_000);
        await().atMost(Duration.ofSeconds(20)).until(() -> new Delta(before, Scrape.now(), "queue", queue,
                "type", queue, "detected_by", "watchdog").of("dedupq_locks_lost_total") == 1);
        assertEquals(1, new Delta(before, Scrape.now(), "queue", queue).of("dedupq_locks_lost_total"));
    }

    @Test
    void anExecutionSeenLostByTheWatchdogAndThenRefusedByCompleteIsOneLostLock() {
        String queue = LockLossProbe.TYPE;
        String id = uniqueId("m-stolen");
        long refusedBefore = stat(queue, "lostLocks");
        Scrape before = Scrape.now();
        assertEquals(202, Api.post(task(id, queue, Map.of("accountId", openAccount("EUR", "100.00"), "amount", 1,
                "holdMillis", 60_000))));
        await().atMost(Duration.ofSeconds(20)).until(() -> probe.started(id) != null);

        // a newer execution takes over both the lock (the watchdog sees it) and the task (claim.lua refuses)
        String newerToken = "other-worker:" + redis.incr(keys.fence(whole(queue)));
        redis.set(keys.lock(whole(queue), id), newerToken, 60_000);
        redis.hset(keys.task(whole(queue), id), "token", newerToken, "worker", "other-worker");

        await().atMost(Duration.ofSeconds(20)).until(() -> stat(queue, "lostLocks") - refusedBefore == 1);
        // the refusal reached the worker just now; a second count would follow it at once
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(
                () -> new Delta(before, Scrape.now(), "queue", queue, "type", queue).of("dedupq_locks_lost_total") == 1);
        assertEquals(1, new Delta(before, Scrape.now(), "queue", queue, "type", queue, "detected_by", "watchdog")
                .of("dedupq_locks_lost_total"), "counted by the first to see it");
    }

    @Test
    void copiesOfADeadWorkerThatTheReaperRequeuesAreCountedByType() {
        String id = uniqueId("m-reaped");
        Scrape before = Scrape.now();
        // a worker that died long ago with two copies in its processing list, one of them unreadable
        redis.zadd(keys.workers(whole(FLAKY)), 1_000, "dead-worker");
        redis.lpush(keys.processing(whole(FLAKY), "dead-worker"), Envelopes.flaky(id, 0), "not an envelope either");

        awaitStatus(id, "succeeded");
        Scrape after = Scrape.now();
        assertEquals(1, new Delta(before, after, "queue", FLAKY, "type", FLAKY).of("dedupq_tasks_reaped_total"));
        assertEquals(1, new Delta(before, after, "queue", FLAKY, "type", "unknown").of("dedupq_tasks_reaped_total"));
    }

    @Test
    void queueGaugesFollowPendingProcessingDelayedAndDead() {
        String first = uniqueId("m-hold");
        String second = uniqueId("m-wait");
        String retrying = uniqueId("m-delayed");
        try {
            assertEquals(202, Api.post(task(first, BlockingHandler.TYPE, Map.of())));
            await().atMost(Duration.ofSeconds(20)).until(() -> blocking.running(first));
            assertEquals(202, Api.post(task(second, BlockingHandler.TYPE, Map.of())));
            // the only slot is held: the second task waits in pending, the first sits in processing
            awaitGauge("dedupq_queue_pending", BlockingHandler.TYPE, 1);
            awaitGauge("dedupq_queue_processing", BlockingHandler.TYPE, 1);
        } finally {
            blocking.release(first);
            blocking.release(second);
        }
        awaitStatus(second, "succeeded");
        awaitGauge("dedupq_queue_pending", BlockingHandler.TYPE, 0);
        awaitGauge("dedupq_queue_processing", BlockingHandler.TYPE, 0);

        double deadBefore = gaugeNow("dedupq_queue_dead", "queue", SlowRetryHandler.TYPE);
        assertEquals(202, Api.post(task(retrying, SlowRetryHandler.TYPE, Map.of("failures", 5))));
        awaitStatus(retrying, "retrying");
        awaitGauge("dedupq_queue_delayed", SlowRetryHandler.TYPE, 1);
        // slow-retry allows 3 attempts, 5 s apart: each retry is made due at once instead of awaited
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            redis.dueNow(keys.delayed(whole(SlowRetryHandler.TYPE)), retrying);
            return "dead".equals(given().get("/api/tasks/" + retrying).jsonPath().getString("status"));
        });
        awaitGauge("dedupq_queue_delayed", SlowRetryHandler.TYPE, 0);
        awaitGauge("dedupq_queue_dead", SlowRetryHandler.TYPE, deadBefore + 1);
    }

    @Test
    void queueGaugesReadNaNAndAreMarkedStaleWhileRedisIsDownAndNumbersAgainWhenItIsBack() {
        awaitReported("dedupq_queue_pending", "queue", FLAKY);
        await().atMost(Duration.ofSeconds(10)).until(() -> gaugeNow("dedupq_queue_gauges_stale") == 0);
        try {
            RedisTestResource.redis().stop();
            await().atMost(Duration.ofSeconds(30)).until(() -> gaugeNow("dedupq_queue_gauges_stale") == 1);
            Scrape down = Scrape.now();
            for (String gauge : List.of("pending", "processing", "delayed", "dead")) {
                assertTrue(Double.isNaN(down.value("dedupq_queue_" + gauge, "queue", FLAKY)), gauge + " is no number");
            }
            assertTrue(Double.isNaN(down.value("dedupq_queue_duplicates_skipped", "queue", FLAKY, "reason", "done")));
        } finally {
            RedisTestResource.runAgain();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> gaugeNow("dedupq_queue_gauges_stale") == 0);
        assertFalse(Double.isNaN(gaugeNow("dedupq_queue_pending", "queue", FLAKY)));
        assertFalse(Double.isNaN(gaugeNow("dedupq_queue_duplicates_skipped", "queue", FLAKY, "reason", "done")));
    }

    private static double gaugeNow(String name, String... labels) {
        return Scrape.now().value(name, labels);
    }

    private static void awaitGauge(String name, String queue, double expected) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> gaugeNow(name, "queue", queue) == expected);
    }

    /** Until the first refresh a gauge reads NaN. */
    private static void awaitReported(String name, String... labels) {
        await().atMost(Duration.ofSeconds(10)).until(() -> !Double.isNaN(gaugeNow(name, labels)));
    }

    /** The change of one sample between two scrapes. */
    private record Delta(Scrape before, Scrape after, String... labels) {
        double of(String name) {
            ToDoubleFunction<Scrape> read = s -> s.value(name, labels);
            return read.applyAsDouble(after) - read.applyAsDouble(before);
        }
    }
}
