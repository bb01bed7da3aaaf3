package io.dedupq.lock;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.lock.DistributedLock.Lease;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Only the token that took a lock can extend or release it through {@link DistributedLock}; a
 * stale or foreign token changes nothing. (The scripts' own table: lua/ExtendContractTest,
 * lua/ReleaseContractTest.)
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class LockOwnershipTest {

    private static final long HELD_TTL_MS = 10_000;

    @Inject
    DistributedLock lock;

    @Inject
    TestRedis redis;

    @Test
    void leaseWithAnotherTokenCannotReleaseOrExtendTheLock() {
        String key = uniqueId("dedupq:owned");
        Lease mine = lock.acquire(key, Duration.ofMillis(HELD_TTL_MS)).orElseThrow();
        Lease impostor = new Lease(key, mine.token() + "-not");

        assertTrue(lock.acquire(key, Duration.ofSeconds(10)).isEmpty(), "a held lock is not acquired twice");
        assertFalse(lock.release(impostor), "release with a foreign token is refused");
        assertFalse(lock.extend(impostor, Duration.ofMinutes(5)), "extend with a foreign token is refused");
        assertEquals(mine.token(), redis.get(key), "the lock still holds the original token");
        assertTrue(redis.pttl(key) <= HELD_TTL_MS, "and its TTL was not extended: " + redis.pttl(key));

        assertTrue(lock.extend(mine, Duration.ofMinutes(5)));
        assertTrue(redis.pttl(key) > HELD_TTL_MS, "the owner's extend took effect: " + redis.pttl(key));
        assertTrue(lock.release(mine));
        assertFalse(redis.exists(key), "the owner's release freed the lock");
        assertFalse(lock.release(mine), "releasing twice is refused the second time");
        assertFalse(lock.extend(mine, Duration.ofMinutes(5)), "a released lock cannot be extended back into life");
        assertFalse(redis.exists(key));
    }
}
