package io.dedupq.worker;

import static io.dedupq.support.Api.account;
import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.openAccount;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.LockLossProbe;
import io.dedupq.support.LongRunningHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.dedupq.tasks.payment.Ledger;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The lock watchdog keeps the lock of a running handler alive past its TTL, and tells an
 * execution whose lock was taken over at once: lockLost() turns true, its thread is
 * interrupted, its outcome is refused and the fenced ledger refuses its debit. Both test
 * queues have a lock TTL of 3 s in the test profile.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class LockWatchdogTest {

    private static final Duration LOCK_TTL = Duration.ofSeconds(3);

    @Inject
    FlakyHandler flaky;

    @Inject
    LockLossProbe probe;

    @Inject
    Watchdog watchdog;

    @Inject
    Ledger ledger;

    @Inject
    WorkerIdentity worker;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @Test
    void handlerRunningThreeLockTtlsKeepsItsLockAndADuplicateArrivingMeanwhileIsSkipped() throws Exception {
        String queue = LongRunningHandler.TYPE;
        String id = uniqueId("long");
        long lockedBefore = stat(queue, "skippedLocked");
        submit(task(id, queue, Map.of("failures", 0, "sleepMillis", 3 * LOCK_TTL.toMillis()))).then().statusCode(202);
        await().alias("the long handler started").atMost(Duration.ofSeconds(10))
                .until(() -> flaky.executions(id).size() == 1);
        String token = redis.hget(keys.task(whole(queue), id), "token");

        Thread.sleep(2 * LOCK_TTL.toMillis());
        assertEquals(token, redis.get(keys.lock(whole(queue), id)), "two TTLs later the lock is still the running execution's");
        redis.lpush(keys.pending(whole(queue)), Envelopes.flaky(id, queue, 0));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertEquals(1, stat(queue, "skippedLocked") - lockedBefore,
                "a duplicate arriving while the watchdog keeps the lock alive is dropped as locked"));
        JsonPath done = awaitStatus(id, "succeeded");
        assertEquals(1, done.getInt("attempts"));
        assertEquals(1, flaky.executions(id).size(), "the duplicate did not run");
        assertFalse(flaky.executions(id).get(0).lockLost());
        assertFalse(redis.exists(keys.lock(whole(queue), id)), "the lock is released after success");
    }

    @Test
    void executionWhoseLockIsTakenOverIsInterruptedItsOutcomeRefusedAndItsDebitFenced() {
        String queue = LockLossProbe.TYPE;
        String accountId = openAccount("EUR", "100.00");
        String id = uniqueId("stolen");
        long lostBefore = stat(queue, "lostLocks");
        submit(task(id, queue, Map.of("accountId", accountId, "amount", 30, "holdMillis", 60_000))).then().statusCode(202);
        await().alias("the lock probe started").atMost(Duration.ofSeconds(10)).until(() -> probe.started(id) != null);
        ExecutionContext ctx = probe.started(id);
        assertFalse(ctx.lockLost());

        // a newer execution takes the task over (as after a pause past the TTL) and debits first
        long newerFence = redis.incr(keys.fence(whole(queue)));
        String newerToken = "other-worker:" + newerFence;
        redis.set(keys.lock(whole(queue), id), newerToken, 60_000);
        redis.hset(keys.task(whole(queue), id), "token", newerToken, "worker", "other-worker");
        assertEquals(Ledger.Debit.DEBITED, ledger.debit(accountId, id, new BigDecimal("30"), "EUR", newerFence));

        await().alias("lost lock: the watchdog must see the foreign token at its next extension (every TTL/3 = 1 s) and "
                + "interrupt the handler, which then finishes").atMost(Duration.ofSeconds(10)).until(() -> probe.finished(id) != null);
        LockLossProbe.Run run = probe.finished(id);
        assertTrue(run.interrupted(), "the handler thread was interrupted");
        assertTrue(run.lockLostWhenInterrupted(), "lockLost() was already true when the interrupt arrived");
        assertTrue(ctx.lockLost());
        assertTrue(ctx.fencingToken() < newerFence);
        assertEquals(Ledger.Debit.STALE, run.debit(), "the ledger refuses the older token");

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertEquals(1, stat(queue, "lostLocks") - lostBefore,
                "lost lock: claim.lua must refuse the outcome of the execution whose task a newer one owns, counted in lostLocks"));
        String taskKey = keys.task(whole(queue), id);
        assertEquals("running", redis.hget(taskKey, "status"), "the newer owner's status stands");
        assertEquals(newerToken, redis.hget(taskKey, "token"));
        assertEquals(null, redis.hget(taskKey, "lastError"));
        assertFalse(new DedupRecords(keys, whole(queue), redis::hget).exists(id), "no done marker");
        assertEquals(newerToken, redis.get(keys.lock(whole(queue), id)), "the newer owner's lock stands");
        assertEquals(0, redis.llen(keys.processing(whole(queue), worker.id())), "the old copy left the processing list");
        JsonPath account = account(accountId);
        assertEquals(new BigDecimal("70.00"), account.get("balance"));
        assertEquals(1, account.getList("ledger").size());
        assertEquals(newerFence, account.getLong("ledger[0].fencingToken"));
    }

    @Test
    void redisErrorDuringExtensionIsNoVerdictButAForeignTokenIs() throws Exception {
        String queue = LockLossProbe.TYPE;
        String id = uniqueId("watched");
        String token = "test-worker:1";
        String lockKey = keys.lock(whole(queue), id);
        // a key of the wrong type: every extension fails with a Redis error (WRONGTYPE)
        redis.hset(lockKey, "not", "a string");
        AtomicReference<Watchdog.Watch> watch = new AtomicReference<>();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch watching = new CountDownLatch(1);
        Thread handler = new Thread(() -> {
            try (Watchdog.Watch w = watchdog.watch(whole(queue), LockLossProbe.TYPE, new Claim(id, LockLossProbe.TYPE, "{}", token, 1), 0)) {
                watch.set(w);
                watching.countDown();
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        });
        handler.start();
        assertTrue(watching.await(5, TimeUnit.SECONDS));

        Thread.sleep(LOCK_TTL.toMillis());
        assertFalse(watch.get().lockLost(), "failed extensions are not a lost lock");
        assertFalse(interrupted.get());

        redis.del(lockKey);
        redis.set(lockKey, token, LOCK_TTL.toMillis());
        Thread.sleep(2 * LOCK_TTL.toMillis());
        assertEquals(token, redis.get(lockKey), "the next ticks extended the lock past its TTL");
        assertFalse(watch.get().lockLost());

        redis.set(lockKey, "someone-else:2", 60_000);
        await().alias("lost lock: an extension answered by another token must interrupt the handler within a tick")
                .atMost(Duration.ofSeconds(5)).until(interrupted::get);
        assertTrue(watch.get().lockLost());
        handler.join(5_000);
        assertNotNull(watch.get());
    }
}
