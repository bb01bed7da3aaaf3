package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.TaskQueue;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * POST /api/queues/{q}/pause and /resume: while paused, enqueued tasks wait (the worker, blocked
 * on an empty queue when the pause came, starts none of them), a running task finishes and its
 * outcome is recorded; resumed, they run. The state is a Redis key, so it outlives pods. The
 * roles (a producer key gets 403) are checked in ApiKeySecurityTest's table.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class PauseApiTest {

    private static final String QUEUE = "flaky";

    @Inject
    FlakyHandler handler;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @Inject
    TaskQueue queues;

    @Inject
    DedupqConfig config;

    @AfterEach
    void resume() {
        queues.resume(QUEUE);
    }

    private static boolean pausedAsListed() {
        return given().get("/api/queues").then().statusCode(200).extract().jsonPath()
                .getBoolean("find { it.queue == '" + QUEUE + "' }.paused");
    }

    @Test
    void pausedTasksWaitWhileTheRunningOneFinishesAndRunAfterTheResume() throws InterruptedException {
        String running = uniqueId("running");
        submit(task(running, QUEUE, Map.of("failures", 0, "sleepMillis", 1500))).then().statusCode(202);
        await().atMost(Duration.ofSeconds(10)).until(() -> handler.executions(running).size() == 1);

        given().post("/api/queues/" + QUEUE + "/pause").then().statusCode(200)
                .body("queue", equalTo(QUEUE)).body("paused", equalTo(true));
        assertTrue(redis.exists(keys.paused(whole(QUEUE))), "the state is in Redis: a restarted pod reads it again");
        assertTrue(pausedAsListed());

        List<String> waiting = List.of(uniqueId("waiting"), uniqueId("waiting"));
        for (String id : waiting) {
            submit(task(id, QUEUE, flaky(0))).then().statusCode(202);
        }
        awaitStatus(running, "succeeded");
        // two claim cycles (block timeout) after the pause and the finished task: nothing was started
        Thread.sleep(2 * config.worker().blockTimeout().toMillis() + 200);
        for (String id : waiting) {
            assertEquals("queued", given().get("/api/tasks/" + id).jsonPath().getString("status"), id);
            assertTrue(handler.executions(id).isEmpty(), id + " never started while paused");
        }

        given().post("/api/queues/" + QUEUE + "/resume").then().statusCode(200)
                .body("queue", equalTo(QUEUE)).body("paused", equalTo(false));
        assertFalse(redis.exists(keys.paused(whole(QUEUE))));
        for (String id : waiting) {
            awaitStatus(id, "succeeded");
            assertEquals(1, handler.executions(id).size(), id + " ran once");
        }
        assertFalse(pausedAsListed());
    }

    @Test
    void pauseAndResumeAreIdempotent() {
        given().post("/api/queues/" + QUEUE + "/pause").then().statusCode(200).body("paused", equalTo(true));
        given().post("/api/queues/" + QUEUE + "/pause").then().statusCode(200).body("paused", equalTo(true));
        assertTrue(pausedAsListed());
        given().post("/api/queues/" + QUEUE + "/resume").then().statusCode(200).body("paused", equalTo(false));
        given().post("/api/queues/" + QUEUE + "/resume").then().statusCode(200).body("paused", equalTo(false));
        assertFalse(pausedAsListed());
    }

    @Test
    void anUnknownQueueIsA404ProblemAndNothingChanges() {
        String unknown = uniqueId("nope");
        given().post("/api/queues/" + unknown + "/pause").then().statusCode(404)
                .contentType(startsWith("application/problem+json")).body("detail", startsWith("no queue named " + unknown));
        assertFalse(redis.exists(keys.paused(whole(unknown))));
    }

    @Test
    void taskQueuePausesAndResumesToo() {
        String id = uniqueId("in-process");
        queues.pause(QUEUE);
        assertTrue(pausedAsListed());
        submit(task(id, QUEUE, flaky(0))).then().statusCode(202);

        queues.resume(QUEUE);

        awaitStatus(id, "succeeded");
    }
}
