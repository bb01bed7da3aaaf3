package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.CancelScript;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.dedupq.queue.TaskStatus;
import io.dedupq.support.Envelopes;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.ScriptLab;
import io.dedupq.worker.Claim;
import io.dedupq.worker.ClaimScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * claim.lua's outcomes (what complete.lua was): an outcome is recorded only by the execution
 * that still owns its task (the token in the task hash). Success and dead-lettering leave a done
 * marker (the outcome's code) that expires with the dedup window and a task hash that expires
 * after the shorter result retention; a retry goes to delayed at its due time; the lock is freed and
 * the copy leaves the processing list. An execution that lost its task changes nothing of the
 * newer owner's, and a call sent again after its reply was lost changes nothing at all.
 */
class CompleteContractTest {

    private static final long WINDOW = 86_400_000;
    private static final long RETENTION = 3_600_000;
    private static final String WORKER = "w1";

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final String queue = uniqueId("complete");
    private final Partition partition = whole(queue);
    private final DedupRecords records = new DedupRecords(keys, partition, lab::hget);
    // claim.lua reads Redis's clock itself, a few ms later than this
    private final long started = lab.serverMillis();

    /** One outcome as the worker sends it. */
    private record Outcome(String id, String token, String outcome, String detail, String nextRecord, long delay) {
        static Outcome succeeded(String id, String token, String result) {
            return new Outcome(id, token, "succeeded", result, "", 0);
        }
    }

    private List<Long> complete(Outcome... outcomes) {
        List<io.dedupq.worker.Outcome> sent = new ArrayList<>();
        for (Outcome o : outcomes) {
            Claim claim = new Claim(o.id(), "flaky", Envelopes.flaky(o.id(), 0), o.token(), 0);
            sent.add(new io.dedupq.worker.Outcome(claim, "flaky", 0, TaskStatus.valueOf(o.outcome().toUpperCase(Locale.ROOT)),
                    o.detail(), o.nextRecord(), o.delay(), false));
        }
        // nothing to claim: only the outcomes part of claim.lua runs
        ScriptCall call = new ClaimScript.Call(partition, WORKER, 0, null, 30_000, 10_000, WINDOW, RETENTION,
                sent).script(keys);
        ClaimScript.Reply reply = ClaimScript.Reply.read(lab.eval(LuaScript.CLAIM, call.keys(), call.args()));
        return reply.recorded().stream().map(recorded -> switch (recorded) {
                    case RECORDED -> 1L;
                    case LOST -> 0L;
                    case CANCELLED -> 2L;
                }).toList();
    }

    /** A task claimed by {@code token} of this worker: its copy in the list, its lock, its hash running. */
    private String claimed(String token) {
        String id = uniqueId("t");
        lab.call("LPUSH", keys.processing(partition, WORKER), Envelopes.flaky(id, 0));
        lab.call("SET", keys.lock(partition, id), token, "PX", 30_000);
        lab.call("HSET", keys.task(partition, id), "id", id, "status", "running", "attempt", "0", "attempts", "1",
                "token", token);
        return id;
    }

    /** A newer execution took the task over: its token in the hash and the lock. */
    private void takenOver(String id, String newerToken) {
        lab.call("SET", keys.lock(partition, id), newerToken, "PX", 30_000);
        lab.call("HSET", keys.task(partition, id), "token", newerToken);
    }

    private String stat(String field) {
        return lab.hget(keys.stats(partition), field);
    }

    private void assertFinished(String id, String outcome) {
        assertFalse(lab.exists(keys.lock(partition, id)), "the lock is freed");
        assertEquals(List.of(), lab.lrange(keys.processing(partition, WORKER)), "the copy left the processing list");
        assertEquals(outcome, records.outcome(id), "the dedup record makes later duplicates drop as done");
        long left = records.expiresAt(id) - lab.serverMillis();
        assertTrue(left > RETENTION && left <= WINDOW, "the record counts for the dedup window: " + left);
        assertTrue(lab.pttl(records.bucket(id)) >= left, "its bucket outlives it");
        assertEquals("listpack", lab.call("OBJECT", "ENCODING", records.bucket(id)).toString(),
                "a bucket of a few ids is kept compact");
        long hash = lab.pttl(keys.task(partition, id));
        assertTrue(hash > 0 && hash <= RETENTION, "the task hash expires after the result retention: " + hash);
        Map<String, String> task = lab.hgetall(keys.task(partition, id));
        assertEquals(outcome, task.get("status"));
        long finishedAt = Long.parseLong(task.get("finishedAt"));
        assertTrue(finishedAt >= started && finishedAt <= lab.serverMillis(), "Redis's time: " + finishedAt);
        assertNull(task.get("token"), "no execution owns a finished task");
    }

    @Test
    void theOwnersSuccessIsRecordedWithItsResult() {
        String id = claimed("w1:5");

        assertEquals(List.of(1L), complete(Outcome.succeeded(id, "w1:5", "{\"runs\":1}")));

        assertFinished(id, "succeeded");
        assertEquals("{\"runs\":1}", lab.hget(keys.task(partition, id), "result"));
        assertEquals("w1:5", lab.hget(keys.task(partition, id), "finishedBy"));
        assertEquals("1", stat("succeeded"));
    }

    @Test
    void aWriteIntoABucketNotRenewedForAWindowPrunesItsExpiredRecords() {
        String id = claimed("w1:5");
        String bucket = records.bucket(id);
        // two records that share the bucket: one whose window passed, one that still counts; the
        // bucket was last renewed more than a window ago (its TTL is under one window)
        long now = lab.serverMillis();
        lab.call("HSET", bucket, "old", DedupRecords.value(now - 1, 1), "live", DedupRecords.value(now + 60_000, 2));
        lab.call("PEXPIRE", bucket, 120_000);

        complete(Outcome.succeeded(id, "w1:5", ""));

        assertNull(lab.hget(bucket, "old"), "a record past its window is removed");
        assertEquals(DedupRecords.value(now + 60_000, 2), lab.hget(bucket, "live"), "one that still counts stays");
        assertEquals("succeeded", records.outcome(id));
        long ttl = lab.pttl(bucket);
        assertTrue(ttl > 2 * WINDOW - 10_000 && ttl <= 2 * WINDOW, "renewed for two windows: " + ttl);
    }

    @Test
    void aWriteIntoABucketRenewedWithinTheWindowLeavesItAsItIs() {
        String id = claimed("w1:5");
        String bucket = records.bucket(id);
        long now = lab.serverMillis();
        lab.call("HSET", bucket, "old", DedupRecords.value(now - 1, 1));
        lab.call("PEXPIRE", bucket, WINDOW + 60_000);

        complete(Outcome.succeeded(id, "w1:5", ""));

        assertEquals(DedupRecords.value(now - 1, 1), lab.hget(bucket, "old"), "pruned at most once a window");
        assertTrue(lab.pttl(bucket) <= WINDOW + 60_000, "its TTL already covers the new record");
    }

    /**
     * The worker sends each outcome's bucket computed for its own dedup-buckets; a partition
     * whose layout was stored with another count has the script compute it for the stored one.
     */
    @Test
    void anOutcomeOfAPodWithAnotherBucketCountIsRecordedInTheStoredLayout() {
        lab.call("HSET", keys.records(partition), "buckets", "7", "legacyUntil", "0");
        String id = claimed("w1:5");

        complete(Outcome.succeeded(id, "w1:5", ""));

        assertEquals("succeeded", new DedupRecords(keys, partition, 7, lab::hget).outcome(id));
    }

    @Test
    void aSuccessWithoutResultStoresNone() {
        String id = claimed("w1:5");

        complete(Outcome.succeeded(id, "w1:5", ""));

        assertFinished(id, "succeeded");
        assertNull(lab.hget(keys.task(partition, id), "result"));
    }

    @Test
    void aRetryGoesToDelayedAtItsDueTimeByRedisClockAndFreesTheLock() {
        String id = claimed("w1:5");
        String next = Envelopes.flaky(id, 0).replace("\"attempt\":0", "\"attempt\":1");

        assertEquals(List.of(1L), complete(new Outcome(id, "w1:5", "retrying", "boom", next, 1_234)));
        long ended = lab.serverMillis();

        double due = lab.zscore(keys.delayed(partition), next);
        assertTrue(due >= started + 1_234 && due <= ended + 1_234,
                "the next attempt waits for its backoff, from Redis's clock: " + due);
        assertFalse(lab.exists(keys.lock(partition, id)), "no lock is held while the retry waits");
        assertEquals(List.of(), lab.lrange(keys.processing(partition, WORKER)));
        assertFalse(records.exists(id), "a retrying task is not done");
        Map<String, String> task = lab.hgetall(keys.task(partition, id));
        assertEquals("retrying", task.get("status"));
        assertEquals("1", task.get("attempt"), "the hash moves to the next attempt, so older copies drop as stale");
        assertEquals("boom", task.get("lastError"));
        assertEquals((long) due, Long.parseLong(task.get("nextAttemptAt")));
        assertNull(task.get("token"));
        assertEquals(-1, lab.pttl(keys.task(partition, id)), "a task still under way does not expire");
        assertEquals("1", stat("retried"));
    }

    @Test
    void aDeadTaskIsDeadLetteredAndRemembered() {
        String id = claimed("w1:5");
        String record = "{\"id\":\"" + id + "\",\"status\":\"dead\"}";

        assertEquals(List.of(1L), complete(new Outcome(id, "w1:5", "dead", "gave up", record, 0)));

        assertFinished(id, "dead");
        assertEquals(List.of(record), lab.lrange(keys.dead(partition)));
        assertEquals("gave up", lab.hget(keys.task(partition, id), "lastError"));
        assertEquals(record, lab.hget(keys.task(partition, id), "deadRecord"));
        assertEquals("1", stat("dead"));
    }

    @Test
    void anExecutionThatLostItsTaskChangesNothingOfTheNewerOwners() {
        String id = claimed("w1:5");
        takenOver(id, "w2:9");

        assertEquals(List.of(0L), complete(Outcome.succeeded(id, "w1:5", "{}")), "the lost execution's outcome is refused");

        assertEquals("w2:9", lab.get(keys.lock(partition, id)), "the newer owner keeps its lock");
        assertEquals("running", lab.hget(keys.task(partition, id), "status"), "and its status");
        assertEquals("w2:9", lab.hget(keys.task(partition, id), "token"));
        assertFalse(records.exists(id), "no done marker for a task still running elsewhere");
        assertEquals(-1, lab.pttl(keys.task(partition, id)));
        assertEquals(List.of(), lab.lrange(keys.processing(partition, WORKER)), "the stale copy leaves this worker's list");
        assertEquals("1", stat("lost_locks"));
        assertNull(stat("succeeded"));

        assertEquals(List.of(0L), complete(Outcome.succeeded(id, "w1:5", "{}")), "a call sent again is answered alike");
        assertEquals("1", stat("lost_locks"), "and counted once");
        assertEquals("w2:9", lab.get(keys.lock(partition, id)));
        assertEquals("running", lab.hget(keys.task(partition, id), "status"));
    }

    /** Redis's count of writes (those it replicates), from INFO. */
    private long writes() {
        String info = lab.call("INFO", "persistence").toString();
        String field = "rdb_changes_since_last_save:";
        int at = info.indexOf(field) + field.length();
        return Long.parseLong(info.substring(at, info.indexOf('\r', at)).trim());
    }

    /** cancel.lua on the running task, as POST /api/tasks/{id}/cancel sends it. */
    private void cancelWhileRunning(String id) {
        CancelScript.Answer answer = CancelScript.read(lab.eval(new CancelScript.Call(partition, id, WINDOW,
                RETENTION).script(keys))).answer();
        assertEquals(CancelScript.Answer.CANCELLED, answer);
    }

    @Test
    void anExecutionCancelledWhileItRanOnlyLosesItsCopyWhateverItsOutcome() {
        String record = "{\"status\":\"dead\"}";
        for (Outcome outcome : List.of(Outcome.succeeded("", "w1:5", "{\"runs\":1}"),
                new Outcome("", "w1:5", "retrying", "interrupted", "{\"attempt\":1}", 10),
                new Outcome("", "w1:5", "failed", "interrupted", record, 0),
                new Outcome("", "w1:5", "dead", "interrupted", record, 0))) {
            String id = claimed("w1:5");
            cancelWhileRunning(id);
            Outcome late = new Outcome(id, outcome.token(), outcome.outcome(), outcome.detail(), outcome.nextRecord(),
                    outcome.delay());

            assertEquals(List.of(2L), complete(late), "answered as cancelled: " + outcome.outcome());

            assertEquals(List.of(), lab.lrange(keys.processing(partition, WORKER)), "the copy left the processing list");
            Map<String, String> task = lab.hgetall(keys.task(partition, id));
            assertEquals("cancelled", task.get("status"), "the task stays cancelled");
            assertNull(task.get("result"));
            assertNull(task.get("finishedBy"), "nothing was recorded");
            assertEquals("cancelled", records.outcome(id));
            assertEquals(List.of(), lab.zrange(keys.delayed(partition)), "no retry scheduled");
            assertEquals(List.of(), lab.lrange(keys.dead(partition)), "nothing dead-lettered");
            long writes = writes();
            assertEquals(List.of(2L), complete(late), "a call sent again is answered alike");
            assertTrue(writes() > writes, "and writes its token again, for a WAIT after the call to cover");
        }
        assertNull(stat("succeeded"));
        assertNull(stat("retried"));
        assertNull(stat("lost_locks"), "a cancel is not a lost lock");
        assertEquals("4", stat("cancelled"));
    }

    @Test
    void aCancelledCopyOfThisWorkerIsRemovedOnlyOnce() {
        String id = claimed("w1:5");
        // a duplicate copy of the same envelope in the list, left by a redelivery: only one leaves per outcome
        lab.call("LPUSH", keys.processing(partition, WORKER), Envelopes.flaky(id, 0));
        cancelWhileRunning(id);

        assertEquals(List.of(2L), complete(Outcome.succeeded(id, "w1:5", "")));

        assertEquals(List.of(Envelopes.flaky(id, 0)), lab.lrange(keys.processing(partition, WORKER)));
    }

    @Test
    void aLostRetryOrFailureChangesNothingEither() {
        String id = claimed("w1:5");
        takenOver(id, "w2:9");

        assertEquals(List.of(0L, 0L), complete(new Outcome(id, "w1:5", "retrying", "boom", "{}", 10),
                new Outcome(id, "w1:5", "dead", "boom", "{}", 0)));

        assertEquals(List.of(), lab.zrange(keys.delayed(partition)), "no retry scheduled");
        assertEquals(List.of(), lab.lrange(keys.dead(partition)), "nothing dead-lettered");
        assertEquals("running", lab.hget(keys.task(partition, id), "status"));
    }

    @Test
    void whenTheNewerOwnerRunsOnTheSameWorkerItsCopyStays() {
        String id = claimed("w1:5");
        takenOver(id, "w1:9");

        assertEquals(List.of(0L), complete(Outcome.succeeded(id, "w1:5", "{}")));

        assertEquals(List.of(Envelopes.flaky(id, 0)), lab.lrange(keys.processing(partition, WORKER)),
                "the copy in the list is the newer execution's");
        assertEquals("w1:9", lab.get(keys.lock(partition, id)));
    }

    @Test
    void whenTheTaskHashVanishedTheOutcomeIsRefusedAndTheLockStillOursIsFreed() {
        String id = claimed("w1:5");
        lab.call("DEL", keys.task(partition, id));

        assertEquals(List.of(0L), complete(Outcome.succeeded(id, "w1:5", "{}")));

        assertFalse(lab.exists(keys.lock(partition, id)), "our own lock is freed, so the id is not blocked");
        assertFalse(records.exists(id), "nothing is marked done: the id may be submitted again");
        assertEquals(List.of(), lab.lrange(keys.processing(partition, WORKER)));
        assertFalse(lab.exists(keys.task(partition, id)), "no hash is made again, one that would never expire");
    }

    @Test
    void aCallSentAgainAfterItsReplyWasLostAnswersOneAndChangesNothing() {
        String id = claimed("w1:5");
        complete(Outcome.succeeded(id, "w1:5", "{\"runs\":1}"));
        // another execution claimed the id later and holds the lock
        lab.call("SET", keys.lock(partition, id), "w2:9", "PX", 30_000);

        long writes = writes();
        assertEquals(List.of(1L), complete(Outcome.succeeded(id, "w1:5", "{\"runs\":1}")), "recognised by finishedBy");
        // WAIT counts what its own connection wrote, and the call sent again may go on another connection
        assertTrue(writes() > writes, "it writes its token again, so that a WAIT after the call covers the outcome");

        assertEquals("1", stat("succeeded"), "counted once");
        assertNull(stat("lost_locks"));
        assertEquals("w2:9", lab.get(keys.lock(partition, id)), "a foreign lock is never deleted");
        assertEquals("succeeded", records.outcome(id));
    }

    @Test
    void eachOutcomeOfOneCallIsJudgedOnItsOwn() {
        String mine = claimed("w1:5");
        String lost = claimed("w1:6");
        takenOver(lost, "w2:9");

        assertEquals(List.of(1L, 0L), complete(Outcome.succeeded(mine, "w1:5", ""), Outcome.succeeded(lost, "w1:6", "")));

        assertEquals("succeeded", records.outcome(mine));
        assertFalse(records.exists(lost));
        assertEquals("1", stat("succeeded"));
        assertEquals("1", stat("lost_locks"));
    }
}
