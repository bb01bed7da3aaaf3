package io.dedupq.lock;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.Concurrently;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * In the spirit of ShedLock's FuzzTester: many threads try to run a non-atomic
 * read-pause-write increment under one lock. If two ever ran at once, an increment would be
 * lost and the counter would fall behind the number of executions the lock reported.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class DistributedLockFuzzTest {

    private static final int THREADS = 12;
    private static final int ATTEMPTS_PER_THREAD = 60;

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

    private void unsafeIncrement() {
        int seen = counter;
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        counter = seen + 1;
    }
}
