package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RateLimitedHandler;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A queue of its own with dedupq.queues.rate-limited.rate-limit=2/1000ms (the test configuration): every task runs, once and at its first attempt, but no
 * window of 1 s holds more than 2 starts, counted from the claim times claim.lua wrote on
 * Redis's clock (startedAt). The owner waits for room instead of asking again and again, so
 * the calls the limit cut short stay few.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class RateLimitApiTest {

    /** As the test configuration limits the queue. */
    static final int STARTS = 2;
    static final long WINDOW_MS = 1000;

    @Inject
    FlakyHandler handler;

    @Test
    void noWindowHoldsMoreStartsThanTheLimitAndEveryTaskRunsOnce() {
        long limitedBefore = stat(RateLimitedHandler.TYPE, "rateLimited");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            String id = uniqueId("rated");
            ids.add(id);
            submit(task(id, RateLimitedHandler.TYPE, flaky(0))).then().statusCode(202);
        }
        List<Long> starts = new ArrayList<>();
        for (String id : ids) {
            JsonPath done = awaitStatus(id, "succeeded");
            assertEquals(1, done.getInt("attempts"), id + ": held back, never retried");
            assertEquals(1, handler.executions(id).size(), id + " ran once");
            starts.add(done.getLong("startedAt"));
        }
        Collections.sort(starts);
        for (int i = 0; i + STARTS < starts.size(); i++) {
            long span = starts.get(i + STARTS) - starts.get(i);
            assertTrue(span >= WINDOW_MS, (STARTS + 1) + " starts within " + span + " ms: " + starts);
        }
        long limited = stat(RateLimitedHandler.TYPE, "rateLimited") - limitedBefore;
        assertTrue(limited >= 1, "the limit held claims back");
        // 7 tasks at 2 a second leave about 3 full windows: an owner asking again at once would count hundreds
        assertTrue(limited <= 3 * ids.size(), "the owner waited for room: " + limited + " calls cut short");
    }
}
