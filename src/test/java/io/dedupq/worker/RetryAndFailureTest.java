package io.dedupq.worker;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.Skips;
import io.dedupq.support.SlowRetryHandler;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Retryable failures are retried with backoff up to max-attempts (3 for the flaky queues in the
 * test profile) and then dead-lettered; permanent failures are not retried; an old copy of a
 * task that has moved on to a retry is dropped.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class RetryAndFailureTest {

    private static final String QUEUE = "flaky";
    private static final int MAX_ATTEMPTS = 3;

    @Inject
    FlakyHandler handler;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @Test
    void taskFailingTwiceSucceedsOnTheThirdExecutionWithGrowingFencingTokens() {
        String id = uniqueId("retry-ok");
        submit(task(id, "flaky", flaky(2))).then().statusCode(202);

        JsonPath done = awaitStatus(id, "succeeded");

        assertEquals(MAX_ATTEMPTS, done.getInt("attempts"));
        assertEquals(MAX_ATTEMPTS, done.getInt("result.runs"));
        List<ExecutionContext> runs = handler.executions(id);
        assertEquals(List.of(0, 1, 2), runs.stream().map(ExecutionContext::attempt).toList());
        for (int i = 1; i < runs.size(); i++) {
            assertTrue(runs.get(i).fencingToken() > runs.get(i - 1).fencingToken(),
                    "every execution has a larger fencing token than the one before: " + runs);
        }
    }

    @Test
    void taskThatKeepsFailingIsDeadAfterMaxAttemptsWithItsLastError() {
        String id = uniqueId("retry-dead");
        submit(task(id, "flaky", flaky(5))).then().statusCode(202);

        JsonPath dead = awaitStatus(id, "dead");

        assertEquals(MAX_ATTEMPTS, dead.getInt("attempts"));
        assertEquals("IllegalStateException: failure 3 of 5", dead.getString("lastError"));
        assertExecutionsStay(id, MAX_ATTEMPTS);
        JsonPath letter = deadLetter(id).orElseThrow(() -> new AssertionError(id + " is not in the dead list"));
        assertEquals("dead", letter.getString("status"));
        assertEquals(MAX_ATTEMPTS - 1, letter.getInt("attempt"));
        assertEquals("IllegalStateException: failure 3 of 5", letter.getString("error"));
    }

    @Test
    void permanentFailureFailsAfterOneExecution() {
        String id = uniqueId("permanent");
        submit(task(id, "flaky", Map.of("failures", 0, "permanent", true))).then().statusCode(202);

        JsonPath failed = awaitStatus(id, "failed");

        assertEquals(1, failed.getInt("attempts"));
        assertEquals("refused for good", failed.getString("lastError"));
        assertExecutionsStay(id, 1);
        assertEquals("refused for good", deadLetter(id).orElseThrow().getString("error"));
    }

    @Test
    void oldCopyOfATaskWaitingForItsRetryIsDroppedAsStale() {
        String queue = SlowRetryHandler.TYPE;
        String id = uniqueId("stale-copy");
        submit(task(id, queue, flaky(1))).then().statusCode(202);
        awaitStatus(id, "retrying");
        Skips before = Skips.of(queue);

        // the first attempt's envelope comes back (a producer redelivers it) while attempt 1 waits in delayed
        redis.lpush(keys.pending(whole(queue)), Envelopes.flaky(id, queue, 1));

        before.awaitDropped(0, 0, 1);
        assertEquals(1, handler.executions(id).size(), "the old copy did not run");
        assertEquals("retrying", given().get("/api/tasks/" + id).jsonPath().getString("status"),
                "and the retry is still waiting: the copy really met a task in delayed");
        JsonPath done = awaitStatus(id, "succeeded");
        assertEquals(2, done.getInt("attempts"));
        assertEquals(List.of(0, 1), handler.executions(id).stream().map(ExecutionContext::attempt).toList());
    }

    /** The count is right now and does not grow afterwards (no retry left scheduled). */
    private void assertExecutionsStay(String id, int count) {
        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5))
                .until(() -> handler.executions(id).size() == count);
    }

    private Optional<JsonPath> deadLetter(String id) {
        return redis.lrange(keys.dead(whole(QUEUE))).stream().map(JsonPath::from)
                .filter(record -> id.equals(record.getString("id"))).findFirst();
    }
}
