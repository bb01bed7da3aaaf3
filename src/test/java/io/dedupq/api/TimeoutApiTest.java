package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.handler.ExecutionContext;
import io.dedupq.queue.InvalidTaskException;
import io.dedupq.queue.TaskQueue;
import io.dedupq.queue.TaskSubmission;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.SleepyHandler;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Timeouts: the "sleepy" queue sets dedupq.queues.sleepy.timeout=1s and two attempts (test
 * profile); a task's own {@code timeout} (ms) takes precedence. A handler past its timeout is
 * interrupted, sees ctx.timedOut(), and its attempt fails as retryable, whatever it returns: it
 * is retried with the queue's backoff and ends dead when attempts are used up. A bad timeout is
 * a 400 naming the field, and nothing is enqueued.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class TimeoutApiTest {

    @Inject
    SleepyHandler sleepy;

    @Inject
    TaskQueue tasks;

    @Inject
    ObjectMapper mapper;

    private static Map<String, Object> sleepyTask(String id, Map<String, Object> payload, Object timeout) {
        Map<String, Object> task = new HashMap<>(Map.of("id", id, "type", SleepyHandler.TYPE, "payload", payload));
        if (timeout != null) {
            task.put("timeout", timeout);
        }
        return task;
    }

    /** Both attempts ran past the timeout: told, interrupted, retried once, then dead. */
    private void assertTimedOutTwice(String id, long timeoutMillis) {
        JsonPath dead = awaitStatus(id, "dead");
        List<ExecutionContext> runs = sleepy.executions(id);
        assertEquals(List.of(0, 1), runs.stream().map(ExecutionContext::attempt).toList(), "retried once, as max-attempts says");
        assertTrue(runs.stream().allMatch(ExecutionContext::timedOut), "each execution was told it timed out");
        assertEquals("timed out after " + timeoutMillis + " ms", dead.getString("lastError"));
    }

    @Test
    void theQueuesTimeoutInterruptsTheHandlerAndTheAttemptIsRetried() {
        String id = uniqueId("queue-timeout");

        submit(sleepyTask(id, Map.of("sleepMillis", 30_000), null)).then().statusCode(202);

        assertTimedOutTwice(id, 1_000);
    }

    @Test
    void aHandlerThatIgnoresTheInterruptStillFailsItsAttempt() {
        String id = uniqueId("stubborn");

        submit(sleepyTask(id, Map.of("sleepMillis", 1_500, "ignoreInterrupts", true), null)).then().statusCode(202);

        assertTimedOutTwice(id, 1_000);
    }

    @Test
    void aTasksOwnTimeoutTakesPrecedence() {
        String longer = uniqueId("longer");
        String shorter = uniqueId("shorter");

        submit(sleepyTask(longer, Map.of("sleepMillis", 1_500), 10_000)).then().statusCode(202);
        submit(sleepyTask(shorter, Map.of("sleepMillis", 800), 200)).then().statusCode(202);

        awaitStatus(longer, "succeeded");
        assertFalse(sleepy.executions(longer).get(0).timedOut(), "10 s, not the queue's 1 s");
        assertTimedOutTwice(shorter, 200);
    }

    @Test
    void inProcessSubmissionsCarryTheirTimeout() {
        String id = uniqueId("in-process");

        tasks.enqueue(new TaskSubmission(id, SleepyHandler.TYPE, mapper.valueToTree(Map.of("sleepMillis", 800))).withTimeout(100L));

        assertTimedOutTwice(id, 100);
        InvalidTaskException refused = assertThrows(InvalidTaskException.class, () -> tasks.enqueue(
                new TaskSubmission(uniqueId("bad"), SleepyHandler.TYPE, mapper.valueToTree(Map.of("sleepMillis", 1))).withTimeout(0L)));
        assertEquals("timeout", refused.errors().get(0).field());
    }

    @Test
    void aBadTimeoutIsA400NamingTheFieldAndNothingIsEnqueued() {
        for (Object bad : List.of("5s", 0, -1, 1.5, true, TaskSubmission.MAX_TIMEOUT_MILLIS + 1)) {
            String id = uniqueId("bad-timeout");
            Problems.check(Problems.Reply.of(submit(sleepyTask(id, Map.of("sleepMillis", 1), bad))), 400, "timeout");
            String valid = uniqueId("valid");
            Problems.check(Problems.Reply.of(submitBatch(List.of(sleepyTask(valid, Map.of("sleepMillis", 1), 1_000),
                    sleepyTask(id, Map.of("sleepMillis", 1), bad)))), 400, "tasks[1].timeout");
            given().get("/api/tasks/" + id).then().statusCode(404);
            given().get("/api/tasks/" + valid).then().statusCode(404);
        }
    }
}
