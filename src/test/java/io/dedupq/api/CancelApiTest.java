package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
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
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * POST /api/tasks/{id}/cancel: a queued or retrying task ends cancelled, its waiting copies
 * leave pending and delayed, and it never runs; its id is then treated like a finished one.
 * A running or terminal task is a 409, an unknown one a 404, and neither changes anything.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class CancelApiTest {

    @Inject
    FlakyHandler handler;

    @Inject
    BlockingHandler blocking;

    @Inject
    TestRedis redis;

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
        assertTrue(redis.pttl(keys.done(whole(queue), id)) > 0, "the id is remembered for the dedup window only");
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
    void runningTaskIsAConflictAndFinishesAsUsual() {
        String queue = BlockingHandler.TYPE;
        String id = uniqueId("running");
        // held until released: however slow the requests below, the task is still running
        submit(task(id, queue, Map.of())).then().statusCode(202);
        try {
            await().alias("the handler started").atMost(Duration.ofSeconds(10)).until(() -> blocking.running(id));
            long cancelledBefore = stat(queue, "cancelled");

            refused(cancel(id), 409);

            assertEquals(cancelledBefore, stat(queue, "cancelled"));
            assertEquals("running", status(id));
        } finally {
            blocking.release(id);
        }
        awaitStatus(id, "succeeded");
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
