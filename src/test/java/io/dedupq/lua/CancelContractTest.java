package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.CancelScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.StatusReply;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Envelopes;
import io.dedupq.support.ScriptLab;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * cancel.lua: a task that is waiting (queued, or retrying in delayed) or running ends as
 * cancelled like a finished one, with a done marker for the dedup window, its hash kept for the
 * result retention and its waiting copies taken out. A running one also loses its owner (the
 * token moves to cancelledBy), its lock if that token still holds it, and its worker hears of it
 * on the cancel channel; its running copy stays for that worker's outcome to remove. A finished
 * task, or none, is left as it is.
 */
class CancelContractTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final long WINDOW = 600_000;
    private static final long RETENTION = 60_000;

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final Partition partition = whole(uniqueId("cancel"));
    private final DedupRecords records = new DedupRecords(keys, partition, lab::hget);
    private final String id = uniqueId("t");

    private StatusReply<CancelScript.Answer> cancel() {
        return CancelScript.read(lab.eval(new CancelScript.Call(partition, id, WINDOW, RETENTION).script(keys)));
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

        long before = lab.serverMillis();
        assertEquals(new StatusReply<>(CancelScript.Answer.CANCELLED, "cancelled"), cancel());

        String hash = keys.task(partition, id);
        assertEquals("cancelled", lab.hget(hash, "status"));
        long finishedAt = Long.parseLong(lab.hget(hash, "finishedAt"));
        assertTrue(finishedAt >= before && finishedAt <= lab.serverMillis(), "Redis's time: " + finishedAt);
        assertNull(lab.hget(hash, "nextAttemptAt"), "no retry is due any more");
        assertEquals(List.of(other), lab.lrange(keys.pending(partition)), "every copy of the task, and only those, left");
        assertEquals("cancelled", records.outcome(id));
        long left = records.expiresAt(id) - lab.serverMillis();
        assertTrue(left > WINDOW - 10_000 && left <= WINDOW, "the record counts for the dedup window: " + left);
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
    void aRunningTaskEndsCancelledAtOnceAndItsWorkerIsTold() throws InterruptedException {
        BlockingQueue<String> notices = lab.subscribe(keys.cancelChannel());
        task("running");
        lab.call("HSET", keys.task(partition, id), "token", "w1:7");
        lab.call("SET", keys.lock(partition, id), "w1:7", "PX", 30_000);
        lab.call("LPUSH", keys.processing(partition, "w1"), Envelopes.flaky(id, 0));
        lab.call("LPUSH", keys.pending(partition), Envelopes.flaky(id, 0));

        assertEquals(new StatusReply<>(CancelScript.Answer.CANCELLED, "cancelled"), cancel());

        Map<String, String> hash = lab.hgetall(keys.task(partition, id));
        assertEquals("cancelled", hash.get("status"));
        assertEquals("w1:7", hash.get("cancelledBy"), "the cancelled execution is named for claim.lua and the watchdog");
        assertNull(hash.get("token"), "the execution no longer owns the task");
        assertFalse(lab.exists(keys.lock(partition, id)), "the lock is freed: the id is not held any more");
        assertEquals("cancelled", records.outcome(id), "duplicates drop as done");
        long kept = lab.pttl(keys.task(partition, id));
        assertTrue(kept > RETENTION - 10_000 && kept <= RETENTION, "the hash lasts the result retention: " + kept);
        assertEquals(List.of(Envelopes.flaky(id, 0)), lab.lrange(keys.processing(partition, "w1")),
                "the running copy stays until its worker's outcome removes it");
        assertEquals(List.of(), lab.lrange(keys.pending(partition)), "a waiting duplicate leaves");
        assertEquals("1", lab.hget(keys.stats(partition), "cancelled"));
        String notice = notices.poll(10, TimeUnit.SECONDS);
        assertNotNull(notice, "the worker running it is told");
        assertTrue(notice.contains("\"token\":\"w1:7\"") && notice.contains("\"id\":\"" + id + "\""), notice);
    }

    @Test
    void aLockTakenByAnotherTokenIsNotDeleted() {
        task("running");
        lab.call("HSET", keys.task(partition, id), "token", "w1:7");
        lab.call("SET", keys.lock(partition, id), "w2:9", "PX", 30_000);

        assertEquals(CancelScript.Answer.CANCELLED, cancel().answer());

        assertEquals("w2:9", lab.get(keys.lock(partition, id)), "only the cancelled execution's lock is freed");
    }

    @Test
    void aWaitingTaskPublishesNothing() throws InterruptedException {
        BlockingQueue<String> notices = lab.subscribe(keys.cancelChannel());
        task("queued");

        assertEquals(CancelScript.Answer.CANCELLED, cancel().answer());

        assertNull(lab.hget(keys.task(partition, id), "cancelledBy"), "no execution was cancelled");
        // a running task's notice, sent after ours would have been: it is the first to arrive
        Partition other = whole(uniqueId("cancel"));
        lab.call("HSET", keys.task(other, id), "id", id, "status", "running", "token", "w3:1");
        CancelScript.read(lab.eval(new CancelScript.Call(other, id, WINDOW, RETENTION).script(keys)));
        String first = notices.poll(10, TimeUnit.SECONDS);
        assertTrue(first != null && first.contains("w3:1"), "the waiting task's cancel sent no notice: " + first);
    }

    @Test
    void aFinishedTaskIsLeftAsItIs() {
        for (String status : List.of("succeeded", "failed", "dead", "cancelled")) {
            task(status);
            lab.call("LPUSH", keys.pending(partition), Envelopes.flaky(id, 0));

            assertEquals(new StatusReply<>(CancelScript.Answer.TERMINAL, status), cancel());

            assertEquals(status, lab.hget(keys.task(partition, id), "status"));
            assertEquals(1, lab.lrange(keys.pending(partition)).size(), "its copy stays");
            assertFalse(records.exists(id), "no done marker");
            assertEquals(-1, lab.pttl(keys.task(partition, id)), "no expiry");
            assertNull(lab.hget(keys.stats(partition), "cancelled"));
            lab.call("DEL", keys.pending(partition));
        }
    }

    @Test
    void withoutATaskNothingHappens() {
        assertEquals(new StatusReply<>(CancelScript.Answer.NO_TASK, ""), cancel());

        assertFalse(records.exists(id));
        assertFalse(lab.exists(keys.task(partition, id)));
    }
}
