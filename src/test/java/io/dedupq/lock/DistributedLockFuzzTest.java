package io.dedupq.lock;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.lock.DistributedLock.Lease;
import io.dedupq.support.Concurrently;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * In the spirit of ShedLock's FuzzTester: many threads try to run a non-atomic
 * read-pause-write increment under one lock. If two ever ran at once, an increment would be
 * lost and the counter would fall behind the number of executions the lock reported. The
 * second test gives the lock a TTL shorter than some of the pauses, so leases expire under
 * their holders while others take the lock: only the token check of extend tells a holder it
 * lost the lock before it writes.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class DistributedLockFuzzTest {

    private static final int THREADS = 12;
    private static final int ATTEMPTS_PER_THREAD = 60;
    /** Shorter than many of the pauses below (0-40 ms): leases expire under their holders. */
    private static final Duration SHORT_TTL = Duration.ofMillis(20);

    @Inject
    DistributedLock lock;

    @Inject
    TestRedis redis;

    /** volatile so every thread sees the last write; the increment itself is deliberately not atomic. */
    private volatile int counter;

    @Test
    void counterIncrementedUnderTheLockEqualsTheExecutionsItReported() {
        String key = uniqueId("dedupq:fuzz-lock");
        AtomicInteger executed = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();

        Concurrently.run(THREADS, THREADS, t -> {
            for (int i = 0; i < ATTEMPTS_PER_THREAD; i++) {
                boolean ran = lock.execute(key, Duration.ofSeconds(30), this::unsafeIncrement);
                (ran ? executed : refused).incrementAndGet();
            }
            return null;
        });

        assertEquals(executed.get(), counter, "no increment was lost, so no two executions overlapped");
        assertTrue(executed.get() > 0, "some executions ran");
        assertTrue(refused.get() > 0, "the threads really contended for the lock");
        assertFalse(redis.exists(key), "the last holder released the lock");
    }

    @Test
    void aHolderWritesOnlyAfterExtendingItsLeaseSoALeaseThatExpiredUnderItNeverWrites() {
        String key = uniqueId("dedupq:fuzz-extend");
        AtomicInteger wrote = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();

        Concurrently.run(THREADS, THREADS, t -> {
            for (int i = 0; i < ATTEMPTS_PER_THREAD; i++) {
                Optional<Lease> lease = lock.acquire(key, SHORT_TTL);
                if (lease.isEmpty()) {
                    pause(1);
                    continue;
                }
                int seen = counter;
                pause(ThreadLocalRandom.current().nextInt(40));
                // the check a handler makes before its write: is the lock still mine? then keep it while I write
                if (lock.extend(lease.get(), Duration.ofSeconds(30))) {
                    counter = seen + 1;
                    wrote.incrementAndGet();
                    lock.release(lease.get());
                } else {
                    lost.incrementAndGet();
                }
            }
            return null;
        });

        assertEquals(wrote.get(), counter, "extend must refuse a lease whose lock expired and was taken by another "
                + "token: a holder that was told it still held the lock wrote over another holder's increment");
        assertTrue(lost.get() > 0, "some leases really expired under their holders");
        assertTrue(wrote.get() > 0, "some holders wrote");
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void unsafeIncrement() {
        int seen = counter;
        pause(1);
        counter = seen + 1;
    }
}
