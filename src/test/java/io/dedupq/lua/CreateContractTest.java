package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.ScriptLab;
import io.dedupq.tasks.CreateScript;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** create.lua: a hash is written only when it does not exist yet; an existing one is left exactly as it is. */
class CreateContractTest {

    private final ScriptLab lab = ScriptLab.shared();
    private final String key = uniqueId("dedupq:account:{a}");

    private boolean create(Map<String, String> fields) {
        return CreateScript.created(lab.eval(new CreateScript.Call(key, fields).script()));
    }

    @Test
    void aNewHashGetsEveryField() {
        assertTrue(create(Map.of("currency", "EUR", "balance", "1000")));

        assertEquals(Map.of("currency", "EUR", "balance", "1000"), lab.hgetall(key));
    }

    @Test
    void anExistingHashIsLeftAsItIs() {
        lab.call("HSET", key, "currency", "EUR", "balance", "250", "note", "kept");

        assertFalse(create(Map.of("currency", "USD", "balance", "1000", "extra", "x")), "opened already");

        assertEquals(Map.of("currency", "EUR", "balance", "250", "note", "kept"), lab.hgetall(key));
    }
}
