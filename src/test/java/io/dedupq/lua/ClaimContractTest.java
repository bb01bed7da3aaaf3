package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.dedupq.support.Envelopes;
import io.dedupq.worker.ClaimScript;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.ScriptLab;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * claim.lua: a worker with a fresh heartbeat moves copies from pending to its processing list
 * and locks each task id with a fencing token; copies that must not run (done, locked, stale)
 * are dropped and counted by reason, unreadable ones are dead-lettered. A worker presumed dead
 * claims nothing and gives its moved copy back.
 */
class ClaimContractTest {

    private static final long FRESHNESS = 10_000;
    private static final long TTL = 30_000;
    private static final long WINDOW = 86_400_000;
    private static final String WORKER = "w1";

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final String queue = uniqueId("claim");
    private final Partition partition = whole(queue);
    // claim.lua reads Redis's clock itself, a few ms later than this
    private final long now = lab.serverMillis();
    private final DedupRecords records = new DedupRecords(keys, partition, lab::hget);

    /** What one call answered. */
    private record Reply(boolean registered, List<String> dropped, long dead, List<Claimed> claimed) {
    }

    /** One claimed task. */
    private record Claimed(String id, String envelope, String token, long fence, String type) {
    }

    /** claim.lua for a worker with a fresh heartbeat, {@code max} free slots, no BLMOVE'd copy. */
    private Reply claim(int max) {
        lab.call("ZADD", keys.workers(partition), now, WORKER);
        return claim(max, "");
    }

    private Reply claim(int max, String moved) {
        ScriptCall call = new ClaimScript.Call(partition, WORKER, max, moved, TTL, FRESHNESS, WINDOW, WINDOW, List.of())
                .script(keys);
        ClaimScript.Reply reply = ClaimScript.Reply.read(lab.eval(LuaScript.CLAIM, call.keys(), call.args()));
        List<String> dropped = new ArrayList<>();
        reply.dropped().forEach(d -> dropped.addAll(List.of(d.type(), d.reason())));
        List<Claimed> claimed = reply.claims().stream()
                .map(c -> new Claimed(c.id(), c.envelope(), c.token(), c.fence(), c.type())).toList();
        return new Reply(reply.registered(), dropped, reply.deadLettered(), claimed);
    }

    /** Pushes copies so that the first one given is the first one claimed (workers take from the right). */
    private void pending(String... envelopes) {
        for (String envelope : envelopes) {
            lab.call("LPUSH", keys.pending(partition), envelope);
        }
    }

    private static String copy(String id, int attempt) {
        return Envelopes.flaky(id, 0).replace("\"attempt\":0", "\"attempt\":" + attempt);
    }

    private List<String> processing() {
        return lab.lrange(keys.processing(partition, WORKER));
    }

    private String stat(String field) {
        return lab.hget(keys.stats(partition), field);
    }

    private static List<String> ids(Reply reply) {
        return reply.claimed().stream().map(Claimed::id).toList();
    }

    /** A time the script wrote: Redis's clock during this test, not one passed in. */
    private void assertRedisTime(long written) {
        assertTrue(written >= now && written <= lab.serverMillis(), "Redis's time, not a pod's: " + written);
    }

    @Test
    void aClaimLocksEachTaskWithItsOwnTokenAndStartsItsHash() {
        String a = uniqueId("a");
        String b = uniqueId("b");
        String c = uniqueId("c");
        pending(copy(a, 0), copy(b, 0), copy(c, 0));

        Reply reply = claim(2);

        assertTrue(reply.registered());
        assertEquals(List.of(a, b), ids(reply), "first in, first claimed, and no more than the free slots");
        assertEquals(List.of(copy(c, 0)), lab.lrange(keys.pending(partition)), "the rest waits for the next call");
        assertEquals(List.of(copy(b, 0), copy(a, 0)), processing(), "every claimed copy is in the processing list");
        for (Claimed claimed : reply.claimed()) {
            assertEquals(WORKER + ":" + claimed.fence(), claimed.token(), "the token names worker and fence");
            assertEquals("flaky", claimed.type());
            assertEquals(copy(claimed.id(), 0), claimed.envelope());
            assertEquals(claimed.token(), lab.get(keys.lock(partition, claimed.id())), "the lock holds the claim's token");
            long ttl = lab.pttl(keys.lock(partition, claimed.id()));
            assertTrue(ttl > 0 && ttl <= TTL, "every lock has the TTL, so no id is blocked for good: " + ttl);
            String task = keys.task(partition, claimed.id());
            assertEquals("running", lab.hget(task, "status"));
            assertEquals(claimed.token(), lab.hget(task, "token"), "the hash names the execution that owns the task");
            assertNull(lab.hget(task, "worker"), "the token names the worker; no field of its own");
            assertEquals("0", lab.hget(task, "attempt"));
            assertEquals("1", lab.hget(task, "attempts"));
            assertRedisTime(Long.parseLong(lab.hget(task, "startedAt")));
            assertEquals("flaky", lab.hget(task, "type"), "the hash of a copy pushed straight onto the list starts here");
            assertNull(lab.hget(task, "id"), "as enqueue.lua writes one, without the id and queue its key names");
            assertNull(lab.hget(task, "queue"));
            assertEquals("1", lab.hget(task, "enqueuedAt"));
        }
    }

    @Test
    void anEnqueuedTaskKeepsItsHashAndCountsItsFirstExecution() {
        String id = uniqueId("enqueued");
        // as enqueue.lua writes it: no attempts field, an enqueue time of its own
        lab.call("HSET", keys.task(partition, id), "type", "flaky", "status", "queued", "digest", "d1", "enqueuedAt", "42");
        pending(copy(id, 0));

        assertEquals(List.of(id), ids(claim(1)));

        String task = keys.task(partition, id);
        assertEquals("1", lab.hget(task, "attempts"), "an absent count is 0");
        assertEquals("42", lab.hget(task, "enqueuedAt"), "the hash's enqueue time, not the envelope's");
        assertEquals("d1", lab.hget(task, "digest"));
        assertEquals("running", lab.hget(task, "status"));
    }

    @Test
    void fencesGrowByOnePerLockAndEveryCallsAreLargerThanTheLast() {
        String a = uniqueId("a");
        String b = uniqueId("b");
        pending(copy(a, 0), copy(b, 0));
        Reply first = claim(2);
        long firstFence = first.claimed().get(0).fence();
        assertEquals(firstFence + 1, first.claimed().get(1).fence(), "one fence per lock taken");
        assertTrue(Long.parseLong(lab.get(keys.fence(partition))) >= firstFence + 1, "the counter is at or past the last fence");

        pending(copy(uniqueId("c"), 0));
        long next = claim(2).claimed().get(0).fence();

        assertTrue(next > firstFence + 1, "a later claim's fence is larger than every earlier one: " + next);
    }

    @Test
    void anEnqueuedTaskCountsItsAttemptsAndKeepsWhatEnqueueWrote() {
        String id = uniqueId("t");
        lab.call("HSET", keys.task(partition, id), "id", id, "type", "flaky", "queue", queue, "status", "queued",
                "attempt", "0", "attempts", "2", "enqueuedAt", "42");
        pending(copy(id, 0));

        Reply reply = claim(1);

        assertEquals(List.of(id), ids(reply));
        assertEquals(reply.claimed().get(0).token(), lab.hget(keys.task(partition, id), "token"),
                "the hash names the execution that owns the task");
        assertEquals("3", lab.hget(keys.task(partition, id), "attempts"), "every execution is counted");
        assertEquals("42", lab.hget(keys.task(partition, id), "enqueuedAt"));
    }

    @Test
    void aCopyOfAFinishedTaskIsDroppedAsDone() {
        String id = uniqueId("done");
        lab.call("HSET", records.bucket(id), id, DedupRecords.value(now + 60_000, 1));
        pending(copy(id, 0));

        Reply reply = claim(1);

        assertEquals(List.of(), ids(reply), "a finished task never runs again within the dedup window");
        assertEquals(List.of("flaky", "done"), reply.dropped(), "dropped with the reason done");
        assertEquals(List.of(), processing(), "the dropped copy leaves the processing list");
        assertEquals(List.of(), lab.lrange(keys.pending(partition)));
        assertFalse(lab.exists(keys.lock(partition, id)), "no lock is taken for it");
        assertEquals("1", stat("skipped_done"));
    }

    @Test
    void aCopyOfARunningTaskIsDroppedAsLocked() {
        String id = uniqueId("locked");
        lab.call("SET", keys.lock(partition, id), "other:3", "PX", 60_000);
        lab.call("HSET", keys.task(partition, id), "status", "running", "token", "other:3", "attempt", "0", "attempts", "1");
        pending(copy(id, 0));

        Reply reply = claim(1);

        assertEquals(List.of(), ids(reply), "a task runs in one place at a time");
        assertEquals(List.of("flaky", "locked"), reply.dropped());
        assertEquals("other:3", lab.get(keys.lock(partition, id)), "the running execution keeps its lock");
        assertEquals("other:3", lab.hget(keys.task(partition, id), "token"), "and its ownership");
        assertEquals("1", lab.hget(keys.task(partition, id), "attempts"));
        assertEquals(List.of(), processing());
        assertEquals("1", stat("skipped_locked"));
    }

    @Test
    void aCopyOfAnEarlierAttemptIsDroppedAsStaleButTheCurrentAttemptRuns() {
        String id = uniqueId("retried");
        lab.call("HSET", keys.task(partition, id), "status", "queued", "attempt", "2", "attempts", "2");
        pending(copy(id, 1), copy(id, 2));

        Reply reply = claim(2);

        assertEquals(List.of("flaky", "stale"), reply.dropped(), "the old attempt's copy is dropped as stale");
        assertEquals(List.of(id), ids(reply), "the copy of the current attempt (the retry) runs");
        assertEquals(copy(id, 2), reply.claimed().get(0).envelope());
        assertEquals(List.of(copy(id, 2)), processing());
        assertEquals("1", stat("skipped_stale"));
        assertEquals("3", lab.hget(keys.task(partition, id), "attempts"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"succeeded", "failed", "dead", "cancelled"})
    void aCopyOfATaskWhoseHashSaysItFinishedIsDroppedAsDone(String status) {
        String id = uniqueId("finished");
        // within the result retention: the hash and the record both exist; the hash answers
        lab.call("HSET", keys.task(partition, id), "type", "flaky", "status", status, "attempt", "0", "attempts", "1");
        lab.call("HSET", records.bucket(id), id, DedupRecords.value(now + 60_000, 1));
        pending(copy(id, 0));

        Reply reply = claim(1);

        assertEquals(List.of(), ids(reply));
        assertEquals(List.of("flaky", "done"), reply.dropped());
    }

    @Test
    void aCopyWhoseRecordsWindowHasPassedRunsAgain() {
        String id = uniqueId("again");
        // the bucket has not been pruned yet: the record's own expiry decides
        lab.call("HSET", records.bucket(id), id, DedupRecords.value(now - 1, 1));
        pending(copy(id, 0));

        assertEquals(List.of(id), ids(claim(1)), "after the dedup window the id is free");
    }

    @Test
    void droppedCopiesDoNotUseUpTheFreeSlots() {
        String done = uniqueId("done");
        lab.call("HSET", records.bucket(done), done, DedupRecords.value(now + 60_000, 1));
        String a = uniqueId("a");
        pending(copy(done, 0), copy(a, 0));

        assertEquals(List.of(a), ids(claim(1)));
    }

    @Test
    void unreadableCopiesAreDeadLetteredAsTheyAre() {
        pending("{not json", "{\"id\":\"bad id\",\"type\":\"flaky\"}", "{\"id\":\"ok-id\"}");

        Reply reply = claim(3);

        assertEquals(3, reply.dead());
        assertEquals(List.of(), ids(reply));
        assertEquals(List.of(), processing(), "an unreadable copy never stays in a processing list");
        List<String> dead = lab.lrange(keys.dead(partition));
        assertEquals(3, dead.size());
        JsonPath oldest = JsonPath.from(dead.get(2));
        assertEquals("unparseable envelope", oldest.getString("error"));
        assertEquals("{not json", oldest.getString("envelope"), "kept as it was");
        assertRedisTime(oldest.getLong("failedAt"));
        assertEquals("3", stat("unparseable"));
    }

    @Test
    void aWorkerWithAStaleHeartbeatClaimsNothingAndGivesItsMovedCopyBack() {
        String id = uniqueId("moved");
        String moved = copy(id, 0);
        lab.call("ZADD", keys.workers(partition), now - 2 * FRESHNESS, WORKER);
        lab.call("LPUSH", keys.processing(partition, WORKER), moved);
        pending(copy(uniqueId("waiting"), 0));

        Reply reply = claim(2, moved);

        assertFalse(reply.registered(), "a worker presumed dead claims nothing");
        assertEquals(List.of(), ids(reply));
        assertEquals(List.of(), processing());
        assertEquals(2, lab.lrange(keys.pending(partition)).size(), "its moved copy is back on pending, the other still there");
        assertEquals(moved, lab.lrange(keys.pending(partition)).get(1), "first in line (workers take from the right)");
        assertFalse(lab.exists(keys.lock(partition, id)), "no lock taken");
        assertNull(lab.hget(keys.task(partition, id), "status"));
    }

    @Test
    void aWorkerWithoutAHeartbeatClaimsNothing() {
        pending(copy(uniqueId("t"), 0));

        assertFalse(claim(1, "").registered());
        assertEquals(1, lab.lrange(keys.pending(partition)).size());
    }

    @Test
    void aMovedCopyIsClaimedAndTakesASlot() {
        String id = uniqueId("moved");
        String moved = copy(id, 0);
        lab.call("ZADD", keys.workers(partition), now, WORKER);
        lab.call("LPUSH", keys.processing(partition, WORKER), moved);
        pending(copy(uniqueId("waiting"), 0));

        Reply reply = claim(1, moved);

        assertEquals(List.of(id), ids(reply), "the copy BLMOVE brought is claimed, and fills the one slot");
        assertEquals(1, lab.lrange(keys.pending(partition)).size());
        assertEquals(List.of(moved), processing());
    }

    @Test
    void aMovedCopyThatTheReaperTookBackIsNotClaimed() {
        String id = uniqueId("taken-back");
        String moved = copy(id, 0);
        lab.call("ZADD", keys.workers(partition), now, WORKER);
        // BLMOVE had moved it, then the reaper put it back on pending while the worker was paused
        pending(moved);

        Reply reply = claim(1, moved);

        assertTrue(reply.registered());
        assertEquals(List.of(), ids(reply), "not this worker's to run any more");
        assertFalse(lab.exists(keys.lock(partition, id)));
        assertEquals(List.of(moved), lab.lrange(keys.pending(partition)), "it waits on pending for anyone");
    }

    @Test
    void aLongRunOfDuplicatesEndsTheCallAfterFourCopiesPerSlot() {
        for (int i = 0; i < 10; i++) {
            String id = uniqueId("done");
            lab.call("HSET", records.bucket(id), id, DedupRecords.value(now + 60_000, 1));
            pending(copy(id, 0));
        }

        Reply reply = claim(2);

        assertEquals(16, reply.dropped().size(), "eight copies dropped");
        assertEquals(2, lab.lrange(keys.pending(partition)).size());
    }
}
