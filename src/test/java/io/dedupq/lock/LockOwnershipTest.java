package io.dedupq.lock;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.lock.DistributedLock.Lease;
import io.dedupq.queue.LuaScript;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Only the token that took a lock can extend or release it; a stale or foreign token changes nothing. */
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

    @ParameterizedTest(name = "lock holds [{0}], release with [{1}] -> {2}, then lock holds [{3}]")
    @CsvSource(nullValues = "none", value = {
        // held   token      reply  held after
        "t-1,     t-1,       1,     none",
        "t-1,     t-2,       0,     t-1",
        "t-1,     t-,        0,     t-1",     // a prefix of the token is not the token
        "t-1,     t-1x,      0,     t-1",
        "none,    t-1,       0,     none",
    })
    void releaseLuaDeletesOnlyWithTheHoldersToken(String held, String token, long reply, String heldAfter) {
        String key = uniqueId("dedupq:release");
        if (held != null) {
            redis.set(key, held, HELD_TTL_MS);
        }

        assertEquals(reply, redis.script(LuaScript.RELEASE, List.of(key), List.of(token)).toLong());
        assertEquals(heldAfter, redis.get(key));
    }

    @ParameterizedTest(name = "lock holds [{0}], extend with [{1}] -> {2}, TTL extended: {3}")
    @CsvSource(nullValues = "none", value = {
        // held   token      reply  extended
        "t-1,     t-1,       1,     true",
        "t-1,     t-2,       0,     false",
        "t-1,     t-,        0,     false",
        "none,    t-1,       0,     false",
    })
    void extendLuaProlongsOnlyWithTheHoldersToken(String held, String token, long reply, boolean extended) {
        String key = uniqueId("dedupq:extend");
        if (held != null) {
            redis.set(key, held, HELD_TTL_MS);
        }

        assertEquals(reply, redis.script(LuaScript.EXTEND, List.of(key), List.of(token, "600000")).toLong());
        assertEquals(held, redis.get(key), "extend never changes who holds the lock");
        if (held == null) {
            assertNull(redis.get(key), "extend does not create a lock");
        } else {
            assertEquals(extended, redis.pttl(key) > HELD_TTL_MS, "TTL now " + redis.pttl(key));
        }
    }
}
