package io.dedupq.worker;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.BackoffProbe;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Retries wait as configured, measured end to end from the delays the worker really chose:
 * each task of the "backoff-probe" queue (base 400 ms, max 1 s in the test profile) fails three
 * times; at each execution the probe records its start and the due time of the retry that led
 * to it. A retry's delay then lies between (due - finished) and (due - start of the failed
 * execution), and must lie in 50-100 % of base * 2^attempt capped at the max; the spread of
 * the delays shows the jitter.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class RetryBackoffTest {

    private static final int TASKS = 4;
    private static final int FAILURES = 3;
    private static final long[] FULL = {400, 800, 1_000};

    @Inject
    BackoffProbe probe;

    @Test
    void retriesWaitAGrowingJitteredBackoffAndNeverRunBeforeTheyAreDue() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            String id = uniqueId("backoff");
            ids.add(id);
            submit(task(id, BackoffProbe.TYPE, Map.of("failures", FAILURES))).then().statusCode(202);
        }
        int belowFull = 0;
        for (String id : ids) {
            awaitStatus(id, "succeeded");
            List<BackoffProbe.Run> runs = probe.runs(id);
            assertEquals(FAILURES + 1, runs.size(), id + " ran " + runs);
            for (int k = 0; k < FAILURES; k++) {
                BackoffProbe.Run failed = runs.get(k);
                BackoffProbe.Run retry = runs.get(k + 1);
                long atMost = retry.previousDueAt() - failed.startedAt();
                long atLeast = retry.previousDueAt() - retry.previousFinishedAt();
                assertTrue(atMost >= FULL[k] / 2, "growth: the retry after attempt " + k + " of " + id + " must wait at "
                        + "least " + FULL[k] / 2 + " ms (half of 400 ms doubled per attempt, capped at 1 s), waited at "
                        + "most " + atMost + " ms");
                assertTrue(atLeast <= FULL[k], "the retry after attempt " + k + " of " + id + " must wait at most "
                        + FULL[k] + " ms, waited at least " + atLeast + " ms");
                assertTrue(retry.startedAt() >= retry.previousDueAt(), "a retry runs only once it is due: " + id
                        + " attempt " + (k + 1) + " started " + (retry.previousDueAt() - retry.startedAt()) + " ms early");
                if (atMost < FULL[k] - 50) {
                    belowFull++;
                }
            }
        }
        assertTrue(belowFull > 0, "jitter: every one of " + TASKS * FAILURES + " retries waited its full backoff "
                + "(within 50 ms); the delays must be spread over 50-100 % of it");
    }
}
