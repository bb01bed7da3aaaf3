package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.ScriptLab;
import io.dedupq.worker.ProgressScript;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * progress.lua: the execution that owns its task (its token in the task hash) writes percent,
 * note and Redis's time; any other execution, or one whose task finished or was cancelled (no
 * token any more), writes nothing.
 */
class ProgressContractTest {

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final Partition partition = whole(uniqueId("progress"));
    private final String id = uniqueId("t");

    private boolean report(String token, int percent, String note) {
        return ProgressScript.written(lab.eval(new ProgressScript.Call(partition, id, token, percent, note).script(keys)));
    }

    @Test
    void theOwnerWritesPercentNoteAndRedisTime() {
        lab.call("HSET", keys.task(partition, id), "status", "running", "token", "w1:3");
        long before = lab.serverMillis();

        assertTrue(report("w1:3", 40, "page 4 of 10"));

        Map<String, String> task = lab.hgetall(keys.task(partition, id));
        assertEquals("40", task.get("progress"));
        assertEquals("page 4 of 10", task.get("progressNote"));
        long at = Long.parseLong(task.get("progressAt"));
        assertTrue(at >= before && at <= lab.serverMillis(), "Redis's time: " + at);
        assertTrue(report("w1:3", 41, ""));
        assertEquals("41", lab.hget(keys.task(partition, id), "progress"), "the latest value wins");
        assertEquals("", lab.hget(keys.task(partition, id), "progressNote"));
    }

    @Test
    void anotherExecutionWritesNothing() {
        lab.call("HSET", keys.task(partition, id), "status", "running", "token", "w2:9");

        assertFalse(report("w1:3", 40, "late"));

        assertNull(lab.hget(keys.task(partition, id), "progress"));
        assertNull(lab.hget(keys.task(partition, id), "progressNote"));
    }

    @Test
    void aFinishedOrCancelledTaskKeepsItsLastProgress() {
        lab.call("HSET", keys.task(partition, id), "status", "cancelled", "cancelledBy", "w1:3", "progress", "10",
                "progressNote", "n", "progressAt", "5");

        assertFalse(report("w1:3", 90, "after the cancel"));

        assertEquals("10", lab.hget(keys.task(partition, id), "progress"));
        assertFalse(lab.exists(keys.task(whole(uniqueId("none")), id)));
    }
}
