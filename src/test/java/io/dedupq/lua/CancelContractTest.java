package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.CancelScript;
import io.dedupq.queue.DoneMarker;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.StatusReply;
import io.dedupq.support.Envelopes;
import io.dedupq.support.ScriptLab;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * cancel.lua: a task that is still waiting (queued, or retrying in delayed) ends as cancelled
 * like a finished one, with a done marker for the dedup window, its hash kept for the result
 * retention and its waiting copies taken out; a running or finished task, or none, is left
 * as it is.
 */
class CancelContractTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final long WINDOW = 600_000;
    private static final long RETENTION = 60_000;

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final Partition partition = whole(uniqueId("cancel"));
    private final String id = uniqueId("t");

    private StatusReply<CancelScript.Answer> cancel() {
        return CancelScript.read(lab.eval(new CancelScript.Call(partition, id, NOW, WINDOW, RETENTION).script(keys)));
    }

    private void task(String status) {
        lab.call("HSET", keys.task(partition, id), "id", id, "status", status, "nextAttemptAt", "42");
    }

    @Test
    void aQueuedTaskEndsCancelledAndItsCopiesLeavePending() {
        task("queued");
        // an id that starts like ours: its copy contains our id as text, and must stay
        String other = Envelopes.flaky(id + "0", 0);
        lab.call("LPUSH", keys.pending(partition), Envelopes.flaky(id, 0), other, Envelopes.flaky(id, 0));

        assertEquals(new StatusReply<>(CancelScript.Answer.CANCELLED, "cancelled"), cancel());

        String hash = keys.task(partition, id);
        assertEquals("cancelled", lab.hget(hash, "status"));
        assertEquals(Long.toString(NOW), lab.hget(hash, "finishedAt"));
        assertNull(lab.hget(hash, "nextAttemptAt"), "no retry is due any more");
        assertEquals(List.of(other), lab.lrange(keys.pending(partition)), "every copy of the task, and only those, left");
        assertEquals("cancelled", DoneMarker.outcome(lab.get(keys.done(partition, id))));
        long marker = lab.pttl(keys.done(partition, id));
        assertTrue(marker > WINDOW - 10_000 && marker <= WINDOW, "the marker lasts the dedup window: " + marker);
        long kept = lab.pttl(hash);
        assertTrue(kept > RETENTION - 10_000 && kept <= RETENTION, "the hash lasts the result retention: " + kept);
        assertEquals("1", lab.hget(keys.stats(partition), "cancelled"));
    }

    @Test
    void aRetryingTaskLeavesDelayed() {
        task("retrying");
        lab.call("ZADD", keys.delayed(partition), NOW + 5_000, Envelopes.flaky(id, 1));
        lab.call("ZADD", keys.delayed(partition), NOW + 5_000, Envelopes.flaky(id + "0", 1));

        assertEquals(CancelScript.Answer.CANCELLED, cancel().answer());

        assertEquals(List.of(Envelopes.flaky(id + "0", 1)), lab.zrange(keys.delayed(partition)));
        assertEquals("cancelled", lab.hget(keys.task(partition, id), "status"));
    }

    @Test
    void aRunningOrFinishedTaskIsLeftAsItIs() {
        for (String status : List.of("running", "succeeded")) {
            task(status);
            lab.call("LPUSH", keys.pending(partition), Envelopes.flaky(id, 0));

            assertEquals(new StatusReply<>(CancelScript.Answer.NOT_WAITING, status), cancel());

            assertEquals(status, lab.hget(keys.task(partition, id), "status"));
            assertEquals(1, lab.lrange(keys.pending(partition)).size(), "its copy stays");
            assertFalse(lab.exists(keys.done(partition, id)), "no done marker");
            assertEquals(-1, lab.pttl(keys.task(partition, id)), "no expiry");
            assertNull(lab.hget(keys.stats(partition), "cancelled"));
            lab.call("DEL", keys.pending(partition));
        }
    }

    @Test
    void withoutATaskNothingHappens() {
        assertEquals(new StatusReply<>(CancelScript.Answer.NO_TASK, ""), cancel());

        assertFalse(lab.exists(keys.done(partition, id)));
        assertFalse(lab.exists(keys.task(partition, id)));
    }
}
