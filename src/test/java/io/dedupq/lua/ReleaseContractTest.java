package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.lock.LockScripts;
import io.dedupq.support.ScriptLab;
import org.junit.jupiter.api.Test;

/** release.lua: only the token that holds a lock can delete it; any other call changes nothing. */
class ReleaseContractTest {

    private static final long HELD_MS = 10_000;

    private final ScriptLab lab = ScriptLab.shared();
    private final String key = uniqueId("{c}:lock");

    private boolean release(String token) {
        return LockScripts.held(lab.eval(new LockScripts.Release(key, token).script()));
    }

    @Test
    void theHoldersTokenDeletesTheLock() {
        lab.call("SET", key, "w1:7", "PX", HELD_MS);

        assertTrue(release("w1:7"), "the holder's release is granted");
        assertFalse(lab.exists(key), "the lock is free for the next owner");
    }

    @Test
    void anotherTokenIsRefusedAndTheLockStays() {
        lab.call("SET", key, "w1:7", "PX", HELD_MS);

        assertFalse(release("w2:8"), "a stale or foreign token cannot free someone else's lock");
        assertEquals("w1:7", lab.get(key), "the holder keeps its lock");
        assertTrue(lab.pttl(key) > 0 && lab.pttl(key) <= HELD_MS, "with its TTL: " + lab.pttl(key));
    }

    @Test
    void aPrefixOfTheTokenIsNotTheToken() {
        lab.call("SET", key, "w1:7", "PX", HELD_MS);

        assertFalse(release("w1:"), "ownership is the whole token");
        assertEquals("w1:7", lab.get(key));
    }

    @Test
    void releasingALockThatIsGoneAnswersZero() {
        assertFalse(release("w1:7"), "nothing was released");
        assertFalse(lab.exists(key));
    }
}
