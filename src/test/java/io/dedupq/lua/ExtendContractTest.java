package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.lock.LockScripts;
import io.dedupq.support.ScriptLab;
import org.junit.jupiter.api.Test;

/** extend.lua: a lock gets a new TTL only from the token that holds it, and never changes hands. */
class ExtendContractTest {

    private static final long HELD_MS = 10_000;
    private static final long NEW_TTL_MS = 600_000;

    private final ScriptLab lab = ScriptLab.shared();
    private final String key = uniqueId("{c}:lock");

    private boolean extend(String token) {
        return LockScripts.held(lab.eval(new LockScripts.Extend(key, token, NEW_TTL_MS).script()));
    }

    @Test
    void theHoldersTokenGetsTheNewTtl() {
        lab.call("SET", key, "w1:7", "PX", HELD_MS);

        assertTrue(extend("w1:7"), "the holder's extension is granted");
        long ttl = lab.pttl(key);
        assertTrue(ttl > HELD_MS && ttl <= NEW_TTL_MS, "the lock now has the new TTL, not none: " + ttl);
        assertEquals("w1:7", lab.get(key), "extending never changes who holds the lock");
    }

    @Test
    void anotherTokenIsRefusedAndTheTtlStays() {
        lab.call("SET", key, "w1:7", "PX", HELD_MS);

        assertFalse(extend("w2:8"), "a foreign token cannot keep someone else's lock alive");
        assertTrue(lab.pttl(key) <= HELD_MS, "the TTL is untouched: " + lab.pttl(key));
        assertEquals("w1:7", lab.get(key));
    }

    @Test
    void aPrefixOfTheTokenIsNotTheToken() {
        lab.call("SET", key, "w1:7", "PX", HELD_MS);

        assertFalse(extend("w1:"), "ownership is the whole token");
        assertTrue(lab.pttl(key) <= HELD_MS);
    }

    @Test
    void aLockThatIsGoneIsNotCreated() {
        assertFalse(extend("w1:7"), "an expired lock cannot be extended back into life");
        assertFalse(lab.exists(key), "extend never creates a lock");
    }
}
