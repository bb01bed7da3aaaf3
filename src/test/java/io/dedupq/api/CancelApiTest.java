package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.TaskCanceller;
import io.dedupq.queue.TaskQueue;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.SleepyHandler;
import io.dedupq.queue.RedisCalls;
import io.dedupq.worker.CancelListener;
import io.dedupq.worker.Watchdog;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.dedupq.support.BlockingHandler;
import io.dedupq.support.DoomedHandler;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.SlowRetryHandler;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * POST /api/tasks/{id}/cancel: a queued or retrying task ends cancelled, its waiting copies
 * leave pending and delayed, and it never runs; its id is then treated like a finished one.
 * A running task ends cancelled at once: its handler is told (ctx.cancelled(), an interrupt) over
 * pub/sub or, when that notice is missed, by the watchdog; whatever it returns is discarded, and
 * its lock and copy are cleaned up. A terminal task is a 409, an unknown one a 404, and neither
 * changes anything.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class CancelApiTest {

    @Inject
    FlakyHandler handler;

    @Inject
    BlockingHandler blocking;

    @Inject
    SleepyHandler sleepy;

    @Inject
    TestRedis redis;

    @Inject
    TaskQueue tasks;

    @Inject
    CancelListener listener;

    @Inject
    Watchdog watchdog;

    @Inject
    RedisCalls calls;

    @Inject
    RedisKeys keys;

    private static Response cancel(String id) {
        return given().post("/api/tasks/" + id + "/cancel");
    }

    private static String status(String id) {
        return given().get("/api/tasks/" + id).jsonPath().getString("status");
    }

    @Test
    void queuedTaskIsCancelledLeavesPendingAndNeverRuns() {
        String queue = DoomedHandler.TYPE;
        // the doomed queue runs one handler at a time: while the blocker sleeps, the victim waits in pending
        String blocker = uniqueId("blocker");
        submit(task(blocker, queue, Map.of("failures", 0, "sleepMillis", 5000))).then().statusCode(202);
        await().atMost(Duration.ofSeconds(10)).until(() -> handler.executions(blocker).size() == 1);
        String id = uniqueId("victim");
        submit(task(id, queue, flaky(0))).then().statusCode(202);
        assertTrue(redis.lrange(keys.pending(whole(queue))).stream().anyMatch(copy -> copy.contains(id)));
        long cancelledBefore = stat(queue, "cancelled");

        cancel(id).then().statusCode(200).body("id", equalTo(id)).body("queue", equalTo(queue))
                .body("status", equalTo("cancelled"));
        assertEquals(1, stat(queue, "cancelled") - cancelledBefore);

        assertTrue(redis.lrange(keys.pending(whole(queue))).stream().noneMatch(copy -> copy.contains(id)), "the copy left pending");
        assertEquals("cancelled", status(id));
        awaitStatus(blocker, "succeeded");
        long skippedBefore = stat(queue, "skippedDone");
        redis.lpush(keys.pending(whole(queue)), Envelopes.flaky(id, queue, 0));
        await().atMost(Duration.ofSeconds(10)).until(() -> stat(queue, "skippedDone") - skippedBefore == 1);
        assertEquals(0, handler.executions(id).size(), "a cancelled task never runs, not even a late copy");
        submit(task(id, queue, flaky(0))).then().statusCode(200).body("duplicate", equalTo(true))
                .body("status", equalTo("cancelled"));
        assertTrue(redis.pttl(new DedupRecords(keys, whole(queue), redis::hget).bucket(id)) > 0, "the id is remembered for the dedup window only");
        assertTrue(redis.pttl(keys.task(whole(queue), id)) > 0);
        refused(cancel(id), 409);
        assertEquals(1, stat(queue, "cancelled") - cancelledBefore, "a refused cancel is not counted");
    }

    @Test
    void retryingTaskIsCancelledLeavesDelayedAndIsNotRetried() {
        String queue = SlowRetryHandler.TYPE;
        String id = uniqueId("retrying");
        submit(task(id, queue, flaky(1))).then().statusCode(202);
        awaitStatus(id, "retrying");

        cancel(id).then().statusCode(200).body("status", equalTo("cancelled"));

        assertTrue(redis.zrange(keys.delayed(whole(queue))).stream().noneMatch(copy -> copy.contains(id)), "the retry left delayed");
        // the retry was due within 5 s; it never comes
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(12))
                .until(() -> handler.executions(id).size() == 1 && "cancelled".equals(status(id)));
    }

    @Test
    void runningTaskEndsCancelledItsHandlerIsInterruptedAndItsIdStaysTaken() {
        String queue = BlockingHandler.TYPE;
        String id = uniqueId("running");
        submit(task(id, queue, Map.of())).then().statusCode(202);
        try {
            await().alias("the handler started").atMost(Duration.ofSeconds(10)).until(() -> blocking.running(id));
            long cancelledBefore = stat(queue, "cancelled");

            cancel(id).then().statusCode(200).body("id", equalTo(id)).body("status", equalTo("cancelled"));

            assertEquals("cancelled", status(id), "cancelled at once, not when the handler stops");
            assertEquals(1, stat(queue, "cancelled") - cancelledBefore);
            assertFalse(redis.exists(keys.lock(whole(queue), id)), "the id is no longer held");
            await().alias("the handler was interrupted").atMost(Duration.ofSeconds(10)).until(() -> !blocking.running(id));
            assertTrue(blocking.context(id).cancelled(), "the handler was told");
        } finally {
            blocking.release(id);
        }
        awaitNoCopies(queue, id);
        assertEquals("cancelled", status(id), "the interrupted execution's outcome changed nothing");
        assertNull(redis.hget(keys.task(whole(queue), id), "finishedBy"));
        submit(task(id, queue, Map.of())).then().statusCode(200).body("duplicate", equalTo(true))
                .body("status", equalTo("cancelled"));
        refused(cancel(id), 409);
    }

    /**
     * The pub/sub notice alone interrupts the handler (the watchdog is stopped), also after the
     * listener's connection was killed: it subscribes again.
     */
    @Test
    void theNoticeReachesTheWorkerAlsoAfterItsConnectionWasKilled() {
        watchdog.stop();
        try {
            for (String round : List.of("first", "after-kill")) {
                String id = uniqueId("notice-" + round);
                submit(task(id, BlockingHandler.TYPE, Map.of())).then().statusCode(202);
                try {
                    await().atMost(Duration.ofSeconds(10)).until(() -> blocking.running(id));
                    await().alias("subscribed").atMost(Duration.ofSeconds(10)).until(() -> subscribers() == 1);

                    cancel(id).then().statusCode(200);

                    await().alias("interrupted by the notice").atMost(Duration.ofSeconds(10)).until(() -> !blocking.running(id));
                    assertTrue(blocking.context(id).cancelled());
                } finally {
                    blocking.release(id);
                }
                awaitNoCopies(BlockingHandler.TYPE, id);
                // as when Redis restarts: the subscribed connection is gone
                calls.send(Request.cmd(Command.CLIENT).arg("KILL").arg("TYPE").arg("pubsub"));
            }
        } finally {
            watchdog.start();
        }
    }

    /** Connections subscribed to the cancel channel, by Redis's count. */
    private long subscribers() {
        return calls.send(Request.cmd(Command.PUBSUB).arg("NUMSUB").arg(keys.cancelChannel())).get(1).toLong();
    }

    @Test
    void aHandlerThatIgnoresTheInterruptFinishesButItsOutcomeIsDiscarded() {
        String queue = BlockingHandler.TYPE;
        String id = uniqueId("stubborn");
        submit(task(id, queue, Map.of("ignoreInterrupts", true))).then().statusCode(202);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> blocking.running(id));

            // in-process, as TaskQueue.cancel
            TaskCanceller.Cancelled cancelled = tasks.cancel(id).orElseThrow();

            assertTrue(cancelled.cancelled());
            await().atMost(Duration.ofSeconds(10)).until(() -> blocking.context(id).cancelled());
            assertTrue(blocking.running(id), "it goes on: the interrupt is all the worker can do");
        } finally {
            blocking.release(id);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !blocking.running(id));
        awaitNoCopies(queue, id);
        assertEquals("cancelled", status(id), "its success came after the cancel and was discarded");
        assertNull(redis.hget(keys.task(whole(queue), id), "result"));
    }

    @Test
    void aMissedNoticeIsMadeUpByTheWatchdog() {
        String id = uniqueId("unheard");
        listener.stop();
        try {
            submit(Map.of("id", id, "type", SleepyHandler.TYPE, "payload", Map.of("sleepMillis", 20_000),
                    "timeout", 60_000)).then().statusCode(202);
            await().atMost(Duration.ofSeconds(10)).until(() -> sleepy.executions(id).size() == 1);

            cancel(id).then().statusCode(200);

            // the queue's lock TTL is 3 s: an extension is due within a second
            await().atMost(Duration.ofSeconds(10)).until(() -> sleepy.executions(id).get(0).cancelled());
        } finally {
            listener.start();
        }
        awaitNoCopies(SleepyHandler.TYPE, id);
        assertEquals(1, sleepy.executions(id).size());
        assertEquals("cancelled", status(id));
    }

    /**
     * Tasks cancelled while they complete: each ends either succeeded (its cancel a 409) or
     * cancelled (a 200), never both, none runs twice, and no lock or copy is left behind.
     */
    @Test
    void cancelsRacingCompletionsEndEachTaskOneWayOnly() throws Exception {
        String queue = "flaky";
        Random random = new Random();
        List<String> ids = new ArrayList<>();
        List<Map<String, Object>> batch = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String id = uniqueId("race-" + i);
            ids.add(id);
            batch.add(task(id, queue, Map.of("failures", 0, "sleepMillis", random.nextInt(300))));
        }
        submitBatch(batch).then().statusCode(200).body("accepted", equalTo(40));
        Map<String, Integer> answers = new ConcurrentHashMap<>();
        ExecutorService cancellers = Executors.newFixedThreadPool(8);
        try {
            for (String id : ids) {
                long delay = random.nextInt(400);
                cancellers.submit(() -> {
                    Thread.sleep(delay);
                    answers.put(id, cancel(id).statusCode());
                    return null;
                });
            }
        } finally {
            cancellers.shutdown();
            assertTrue(cancellers.awaitTermination(60, TimeUnit.SECONDS));
        }

        for (String id : ids) {
            String status = await().atMost(Duration.ofSeconds(20)).until(() -> status(id),
                    s -> "succeeded".equals(s) || "cancelled".equals(s));
            assertEquals(answers.get(id) == 200 ? "cancelled" : "succeeded", status, id + " answered " + answers.get(id));
            assertTrue(handler.executions(id).size() <= 1, id + " ran " + handler.executions(id).size() + " times");
            if ("succeeded".equals(status)) {
                assertEquals(1, handler.executions(id).size());
            } else {
                assertNull(redis.hget(keys.task(whole(queue), id), "finishedBy"), id + ": no outcome recorded over the cancel");
            }
            assertFalse(redis.exists(keys.lock(whole(queue), id)), id + " left its lock");
        }
        for (String id : ids) {
            awaitNoCopies(queue, id);
        }
        assertTrue(answers.values().stream().allMatch(code -> code == 200 || code == 409), answers.toString());
    }

    /** No copy of {@code id} waits or runs any more: pending, delayed and every worker's processing list. */
    private void awaitNoCopies(String queue, String id) {
        await().alias("no copy of " + id + " left").atMost(Duration.ofSeconds(10)).until(() -> {
            List<String> lists = new ArrayList<>(redis.keys(keys.processing(whole(queue), "*")));
            lists.add(keys.pending(whole(queue)));
            return lists.stream().flatMap(list -> redis.lrange(list).stream()).noneMatch(copy -> copy.contains(id))
                    && redis.zrange(keys.delayed(whole(queue))).stream().noneMatch(copy -> copy.contains(id));
        });
    }

    @Test
    void terminalTaskIsAConflict() {
        String id = uniqueId("finished");
        submit(task(id, "flaky", flaky(0))).then().statusCode(202);
        awaitStatus(id, "succeeded");

        refused(cancel(id), 409);

        assertEquals("succeeded", status(id));
    }

    @Test
    void unknownTaskIsNotFoundAndABadIdIsNamed() {
        refused(cancel(uniqueId("never-seen")), 404);
        Problems.check(Problems.Reply.of(cancel("bad*id")), 400, "id");
    }

    private static void refused(Response response, int status) {
        Problems.check(Problems.Reply.of(response), status, null);
    }
}
