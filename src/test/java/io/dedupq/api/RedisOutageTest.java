package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.DedupqConfig;
import io.dedupq.config.RedisProcess;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With Redis stopped or frozen the API answers 503 at once instead of hanging, and when Redis
 * is back the same app accepts and runs tasks again without a restart. Redis is shared with
 * every other test class, so it is always running again when a test here ends.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class RedisOutageTest {

    /** So that a hanging answer fails the test instead of blocking the build. */
    private static final RestAssuredConfig BOUNDED = RestAssured.config().httpClient(HttpClientConfig.httpClientConfig()
            .setParam("http.connection.timeout", 5_000).setParam("http.socket.timeout", 10_000));

    private final RedisProcess redis = RedisTestResource.redis();

    @Inject
    FlakyHandler handler;

    @Inject
    DedupqConfig config;

    @BeforeEach
    void healthyAndWarm() {
        // a healthy store before the outage, and a warm client: RestAssured's first POST in a JVM
        // spends up to a second starting itself, which is not the server's answer time
        await().atMost(Duration.ofSeconds(10)).until(() -> submit(uniqueId("warm-up")).statusCode() == 202);
    }

    @AfterEach
    void redisRunsAgain() {
        RedisTestResource.runAgain();
    }

    @Test
    void stoppedRedisGets503WithinOneSecondAndServiceRecoversWhenItIsBack() {
        String refused = uniqueId("outage-stop");
        try {
            redis.stop();
            assertUnavailableWithin(Duration.ofSeconds(1), () -> submit(refused));
        } finally {
            redis.start();
        }

        assertNewTasksAreAcceptedAndRunAgain();
        // Redis was gone, so the refused submission cannot have been written: it is new now
        Response again = submit(refused);
        assertEquals(202, again.statusCode(), again.asString());
        assertRanOnce(refused);
    }

    @Test
    void frozenRedisGets503WithinAboutOneSecondAndServiceRecoversWhenItThaws() {
        String refused = uniqueId("outage-pause");
        try {
            redis.pause();
            assertUnavailableWithin(Duration.ofMillis(1500), () -> submit(refused));
            // another class's Redis call runs under the same guard: cut off as fast, not after the client's 5 s
            assertUnavailableWithin(Duration.ofMillis(1500), () -> given().config(BOUNDED).get("/api/workers"));
            assertUnavailableWithin(Duration.ofMillis(1500), () -> given().config(BOUNDED).get("/api/queues/flaky/tasks"));
        } finally {
            redis.resume();
        }

        assertNewTasksAreAcceptedAndRunAgain();
        // the timed-out request may have waited in the frozen server's socket and run on thaw:
        // retrying with the same id is safe either way, and the task runs once
        Response retry = submit(refused);
        assertTrue(retry.statusCode() == 202
                || retry.statusCode() == 200 && Boolean.TRUE.equals(retry.jsonPath().get("duplicate")), retry.asString());
        assertRanOnce(refused);
    }

    @Test
    void redisFrozenLongerThanTheHeartbeatExpiryDoesNotRunARunningTaskTwice() throws InterruptedException {
        String id = uniqueId("stall");
        assertEquals(202, submit(id, Map.of("failures", 0, "sleepMillis", 3000)).statusCode());
        await().atMost(Duration.ofSeconds(20)).until(() -> handler.executions(id).size() == 1);

        // the worker is alive and running the task; only Redis stops answering, for longer than
        // a heartbeat may be missed
        try {
            redis.pause();
            Thread.sleep(config.worker().heartbeatExpiry().plusMillis(500).toMillis());
        } finally {
            redis.resume();
        }

        assertRanOnce(id);
    }

    private static void assertUnavailableWithin(Duration limit, Supplier<Response> request) {
        long started = System.nanoTime();
        Response response = request.get();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertEquals(503, response.statusCode(), response.asString());
        assertTrue(took.compareTo(limit) < 0, "answered in " + took.toMillis() + " ms, limit " + limit.toMillis());
        assertTrue(response.contentType().startsWith("application/problem+json"), response.contentType());
        assertEquals(503, response.jsonPath().getInt("status"));
        String retryAfter = response.header("Retry-After");
        assertTrue(retryAfter != null && Integer.parseInt(retryAfter) > 0, "Retry-After: " + retryAfter);
    }

    /** Within 10 s a brand-new task is accepted, and the workers, never restarted, run it. */
    private void assertNewTasksAreAcceptedAndRunAgain() {
        AtomicReference<String> accepted = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250)).until(() -> {
            String id = uniqueId("after-outage");
            if (submit(id).statusCode() != 202) {
                return false;
            }
            accepted.set(id);
            return true;
        });
        assertRanOnce(accepted.get());
    }

    private void assertRanOnce(String id) {
        awaitStatus(id, "succeeded");
        assertEquals(1, handler.executions(id).size(), id + " ran once: " + handler.executions(id));
        assertEquals(1, given().get("/api/tasks/" + id).jsonPath().getInt("attempts"));
    }

    private static Response submit(String id) {
        return submit(id, flaky(0));
    }

    private static Response submit(String id, Map<String, Object> payload) {
        return given().config(BOUNDED).contentType(ContentType.JSON).body(task(id, "flaky", payload)).post("/api/tasks");
    }
}
