package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.DiscardScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.Priority;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ReviveScript;
import io.dedupq.queue.StatusReply;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Envelopes;
import io.dedupq.support.ScriptLab;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * revive.lua and discard.lua, an operator's two acts on one dead-letter record. Revive puts a
 * dead-lettered task back on pending under its id as a first attempt, once: only while its
 * record is still in the dead list and the task is dead-lettered (or its hash is gone). Discard
 * removes the record for good and leaves the task terminal.
 */
class DeadLetterContractTest {

    private static final long NOW = 1_700_000_000_000L;

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final Partition partition = whole(uniqueId("dead"));
    private final DedupRecords records = new DedupRecords(keys, partition, lab::hget);
    private final String id = uniqueId("t");
    private final String record = "{\"id\":\"" + id + "\",\"status\":\"dead\"}";
    private final String fresh = Envelopes.flaky(id, 0);

    private StatusReply<ReviveScript.Answer> revive() {
        return ReviveScript.read(lab.eval(new ReviveScript.Call(partition, id, record, fresh, "flaky", NOW, Priority.DEFAULT).script(keys)));
    }

    private boolean discard() {
        return DiscardScript.removed(lab.eval(new DiscardScript.Call(partition, id, record).script(keys)));
    }

    /** A task that ended {@code status} and was dead-lettered, with a record of another task behind it. */
    private void deadLettered(String status) {
        lab.call("HSET", keys.task(partition, id), "id", id, "type", "flaky", "queue", partition.queue(), "status", status,
                "attempt", "4", "attempts", "5", "enqueuedAt", "7", "startedAt", "8", "finishedAt", "9",
                "lastError", "boom", "result", "{}", "deadRecord", record, "finishedBy", "w:3", "token", "w:3");
        lab.call("PEXPIRE", keys.task(partition, id), 60_000);
        // its dedup record, in the layout the claim that recorded it made
        lab.call("HSET", keys.records(partition), "buckets", Integer.toString(records.buckets()), "legacyUntil", "0");
        lab.call("HSET", records.bucket(id), id, DedupRecords.value(lab.serverMillis() + 60_000, 3));
        lab.call("LPUSH", keys.dead(partition), record, "{\"id\":\"another\"}");
    }

    @Test
    void aDeadTaskIsRevivedAsAFirstAttemptOnce() {
        deadLettered("dead");

        assertEquals(new StatusReply<>(ReviveScript.Answer.REVIVED, "queued"), revive());

        assertEquals(Map.of("type", "flaky", "status", "queued", "enqueuedAt", "7"),
                lab.hgetall(keys.task(partition, id)),
                "a queued first attempt as enqueue.lua writes one: the last run's fields and the id and queue of an "
                        + "older hash are gone, the first enqueue time kept");
        assertEquals(-1, lab.pttl(keys.task(partition, id)), "kept until it finishes again");
        assertFalse(records.exists(id), "no dedup record turns the revived copy away");
        assertEquals(List.of(fresh), lab.lrange(keys.pending(partition)));
        assertEquals(List.of("{\"id\":\"another\"}"), lab.lrange(keys.dead(partition)), "its record, and only it, left");
        assertEquals("1", lab.hget(keys.stats(partition), "revived"));

        assertEquals(new StatusReply<>(ReviveScript.Answer.NOT_DEAD, "queued"), revive(), "a second revive does nothing");
        assertEquals(1, lab.lrange(keys.pending(partition)).size());
    }

    @Test
    void aMarkerOfAnEarlierVersionIsClearedToo() {
        deadLettered("dead");
        String marker = keys.base(partition) + "done:" + id;
        lab.call("SET", marker, "3", "PX", 60_000);

        assertEquals(ReviveScript.Answer.REVIVED, revive().answer());

        assertFalse(lab.exists(marker), "nothing of the earlier run turns the revived copy away");
        assertFalse(records.exists(id));
    }

    @Test
    void aFailedTaskWhoseHashExpiredIsRevivedWithANewEnqueueTime() {
        lab.call("LPUSH", keys.dead(partition), record);

        assertEquals(ReviveScript.Answer.REVIVED, revive().answer());

        assertEquals(Long.toString(NOW), lab.hget(keys.task(partition, id), "enqueuedAt"));
        assertEquals("queued", lab.hget(keys.task(partition, id), "status"));
        assertEquals(List.of(fresh), lab.lrange(keys.pending(partition)));
    }

    @Test
    void aRecordNoLongerInTheDeadListRevivesNothing() {
        deadLettered("failed");
        lab.call("LREM", keys.dead(partition), 0, record);

        assertEquals(new StatusReply<>(ReviveScript.Answer.RECORD_GONE, ""), revive());

        assertEquals("failed", lab.hget(keys.task(partition, id), "status"));
        assertTrue(records.exists(id));
        assertEquals(List.of(), lab.lrange(keys.pending(partition)));
    }

    @Test
    void aTaskThatRunsAgainIsNotRevived() {
        deadLettered("running");

        assertEquals(new StatusReply<>(ReviveScript.Answer.NOT_DEAD, "running"), revive());

        assertEquals(2, lab.lrange(keys.dead(partition)).size(), "its record stays");
        assertEquals(List.of(), lab.lrange(keys.pending(partition)));
        assertEquals("4", lab.hget(keys.task(partition, id), "attempt"));
    }

    @Test
    void discardRemovesTheRecordAndLeavesTheTaskTerminal() {
        deadLettered("dead");

        assertTrue(discard());

        assertEquals(List.of("{\"id\":\"another\"}"), lab.lrange(keys.dead(partition)));
        assertNull(lab.hget(keys.task(partition, id), "deadRecord"), "the hash no longer points to it");
        assertEquals("dead", lab.hget(keys.task(partition, id), "status"));
        assertTrue(records.exists(id), "duplicates are still turned away");
        assertEquals("1", lab.hget(keys.stats(partition), "discarded"));

        assertFalse(discard(), "gone already");
        assertEquals("1", lab.hget(keys.stats(partition), "discarded"), "counted once");
    }

    @Test
    void discardLeavesAHashThatPointsToAnotherRecord() {
        deadLettered("dead");
        lab.call("HSET", keys.task(partition, id), "deadRecord", "{\"id\":\"newer\"}");

        assertTrue(discard());

        assertEquals("{\"id\":\"newer\"}", lab.hget(keys.task(partition, id), "deadRecord"));
    }
}
