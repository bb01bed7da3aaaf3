package io.dedupq.worker;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.LongRunningHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.Skips;
import io.dedupq.support.SlowRetryHandler;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * No id is ever blocked for good: after every path a task can take (success, retry,
 * dead-letter, a task hash that vanished while a copy waited or ran) the lock is gone, the
 * terminal markers expire with the dedup window (a marker outliving its hash: RetentionApiTest), and
 * a new submission or a duplicate copy of the id behaves as README says. After each test no
 * lock key of the queues used here is left without a TTL. (Cancel: CancelApiTest.)
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class SelfHealingKeysTest {

    private static final String FLAKY = "flaky";

    @Inject
    FlakyHandler handler;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @AfterEach
    void noLockWithoutTtl() {
        for (String queue : new String[] {FLAKY, SlowRetryHandler.TYPE, LongRunningHandler.TYPE}) {
            for (String lock : redis.keys(keys.lock(whole(queue), "*"))) {
                assertTrue(redis.pttl(lock) != -1, lock + " has no TTL");
            }
        }
    }

    @Test
    void afterSuccessTheIdIsRememberedForTheWindowAndDuplicatesAreSkipped() {
        String id = uniqueId("ok");
        submit(task(id, FLAKY, flaky(0))).then().statusCode(202);
        awaitStatus(id, "succeeded");

        assertFalse(redis.exists(keys.lock(whole(FLAKY), id)));
        assertExpiresWithTheWindow(FLAKY, id);
        submit(task(id, FLAKY, flaky(0))).then().statusCode(200).body("duplicate", equalTo(true));
        assertDuplicateCopyIsDroppedAsDone(FLAKY, id);
        assertEquals(1, handler.executions(id).size());
    }

    @Test
    void whileARetryWaitsNoLockIsHeldAndTheRetryRuns() {
        String queue = SlowRetryHandler.TYPE;
        String id = uniqueId("retry");
        submit(task(id, queue, flaky(1))).then().statusCode(202);
        awaitStatus(id, "retrying");

        assertFalse(redis.exists(keys.lock(whole(queue), id)), "the lock was released for the retry");
        submit(task(id, queue, flaky(1))).then().statusCode(200).body("status", equalTo("retrying"));
        redis.dueNow(keys.delayed(whole(queue)), id);
        awaitStatus(id, "succeeded");
        assertFalse(redis.exists(keys.lock(whole(queue), id)));
        assertExpiresWithTheWindow(queue, id);
    }

    @Test
    void afterDeadLetteringTheIdIsRememberedForTheWindow() {
        String id = uniqueId("dead");
        submit(task(id, FLAKY, flaky(5))).then().statusCode(202);
        awaitStatus(id, "dead");

        assertFalse(redis.exists(keys.lock(whole(FLAKY), id)));
        assertExpiresWithTheWindow(FLAKY, id);
        assertDuplicateCopyIsDroppedAsDone(FLAKY, id);
    }

    @Test
    void taskHashVanishedWhileARetryWaitedIsRebuiltWhenTheRetryIsClaimed() {
        String queue = SlowRetryHandler.TYPE;
        String id = uniqueId("vanished-waiting");
        submit(task(id, queue, flaky(1))).then().statusCode(202);
        awaitStatus(id, "retrying");

        redis.del(keys.task(whole(queue), id));
        redis.dueNow(keys.delayed(whole(queue)), id);

        awaitStatus(id, "succeeded");
        assertEquals(2, handler.executions(id).size());
        assertFalse(redis.exists(keys.lock(whole(queue), id)));
        assertExpiresWithTheWindow(queue, id);
    }

    @Test
    void taskHashVanishedWhileRunningFreesTheIdForANewSubmission() {
        String queue = LongRunningHandler.TYPE;
        String id = uniqueId("vanished-running");
        long lostBefore = stat(queue, "lostLocks");
        submit(task(id, queue, Map.of("failures", 0, "sleepMillis", 1000))).then().statusCode(202);
        await().alias("the handler started").atMost(Duration.ofSeconds(10)).until(() -> handler.executions(id).size() == 1);

        redis.del(keys.task(whole(queue), id));

        // nobody owns the task any more: the outcome is refused, the lock freed, nothing is marked done
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertEquals(1, stat(queue, "lostLocks") - lostBefore,
                "an execution whose task hash vanished owns nothing: its outcome must be refused, counted in lostLocks"));
        assertFalse(redis.exists(keys.lock(whole(queue), id)));
        assertFalse(new DedupRecords(keys, whole(queue), redis::hget).exists(id));
        submit(task(id, queue, Map.of("failures", 0))).then().statusCode(202);
        awaitStatus(id, "succeeded");
        assertEquals(2, handler.executions(id).size());
    }

    private void assertExpiresWithTheWindow(String queue, String id) {
        assertTrue(redis.pttl(new DedupRecords(keys, whole(queue), redis::hget).bucket(id)) > 0, "the done marker expires");
        assertTrue(redis.pttl(keys.task(whole(queue), id)) > 0, "the task hash expires");
    }

    private void assertDuplicateCopyIsDroppedAsDone(String queue, String id) {
        int runs = handler.executions(id).size();
        Skips before = Skips.of(queue);
        redis.lpush(keys.pending(whole(queue)), Envelopes.flaky(id, queue, 0));
        before.awaitDropped(1, 0, 0);
        assertEquals(runs, handler.executions(id).size(), "the duplicate copy did not run");
    }
}
