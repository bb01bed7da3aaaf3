package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Envelopes;
import io.dedupq.support.ScriptLab;
import io.dedupq.worker.RequeueScript;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * requeue.lua: copies of one worker go back to pending, first in line, with the locks and
 * running statuses that worker holds cleared, and only those. The reaper's mode checks the
 * heartbeat again inside the script: a worker that beat after the reaper read the heartbeats is
 * left alone.
 */
class RequeueContractTest {

    private static final long EXPIRY = 60_000;
    private static final long FORGET_AFTER = 600_000;

    private final ScriptLab lab = ScriptLab.shared();
    // the script measures ages on Redis's clock, a few ms later than this: margins below are seconds
    private final long started = lab.serverMillis();
    private final long cutoff = started - EXPIRY;
    private final long forgetBefore = started - FORGET_AFTER;
    private final RedisKeys keys = lab.keys();
    private final String queue = uniqueId("req");
    private final Partition partition = whole(queue);
    private final String worker = uniqueId("w");

    /** The types of the copies the call put back. */
    private List<String> requeue(RequeueScript.Call call) {
        return RequeueScript.Reply.read(lab.eval(call.script(keys))).types();
    }

    /** The reaper's call: requeue if the heartbeat is older than EXPIRY, forget if older than FORGET_AFTER. */
    private List<String> reap() {
        return requeue(RequeueScript.Call.expired(partition, worker, EXPIRY, FORGET_AFTER));
    }

    private void beat(long at) {
        lab.call("ZADD", keys.workers(partition), at, worker);
    }

    /** A copy this worker claimed with {@code token}: in its list, locked, its hash running. */
    private String running(String token) {
        String id = uniqueId("t");
        String envelope = Envelopes.flaky(id, 0);
        lab.call("LPUSH", keys.processing(partition, worker), envelope);
        lab.call("SET", keys.lock(partition, id), token, "PX", 60_000);
        lab.call("HSET", keys.task(partition, id), "status", "running", "token", token);
        return id;
    }

    private void assertRequeued(String id) {
        assertFalse(lab.exists(keys.lock(partition, id)), "the dead worker's lock is freed, so the copy runs at once");
        assertEquals("queued", lab.hget(keys.task(partition, id), "status"));
        assertNull(lab.hget(keys.task(partition, id), "token"), "no execution owns it now");
    }

    private void assertLeftAlone(String id, String token) {
        assertEquals(token, lab.get(keys.lock(partition, id)), "the lock stays with its holder");
        assertEquals("running", lab.hget(keys.task(partition, id), "status"));
        assertEquals(token, lab.hget(keys.task(partition, id), "token"));
    }

    @Test
    void theReaperPutsTheCopiesOfAWorkerWhoseHeartbeatExpiredBackFirstInLine() {
        beat(cutoff - 1);
        String waiting = Envelopes.flaky(uniqueId("waiting"), 0);
        lab.call("LPUSH", keys.pending(partition), waiting);
        String first = running(worker + ":1");
        String second = running(worker + ":2");
        List<String> before = lab.lrange(keys.processing(partition, worker));

        assertEquals(List.of("flaky", "flaky"), reap(), "one type per copy moved");

        assertEquals(List.of(), lab.lrange(keys.processing(partition, worker)));
        List<String> pending = lab.lrange(keys.pending(partition));
        assertEquals(List.of(waiting, before.get(0), before.get(1)), pending,
                "back in the order they were taken, ahead of what was waiting (workers take from the right)");
        assertEquals(Envelopes.flaky(first, 0), pending.get(2), "the copy taken first is taken first again");
        assertRequeued(first);
        assertRequeued(second);
    }

    @Test
    void aWorkerThatBeatAgainAfterTheReapersReadIsLeftAlone() {
        // the reaper read the heartbeats with this cutoff; then the worker beat before the script ran
        beat(cutoff + 5_000);
        String id = running(worker + ":1");

        assertEquals(List.of(), reap(), "a live worker's copies are never requeued");

        assertEquals(1, lab.lrange(keys.processing(partition, worker)).size(), "its copy stays in its list");
        assertEquals(List.of(), lab.lrange(keys.pending(partition)), "nothing was put back on pending");
        assertLeftAlone(id, worker + ":1");
        assertEquals(cutoff + 5_000, lab.zscore(keys.workers(partition), worker), "and it stays listed");
    }

    @Test
    void aHeartbeatJustYoungerThanTheExpiryByRedisTimeIsNotExpired() {
        beat(cutoff + 1_000);
        String id = running(worker + ":1");

        assertEquals(List.of(), reap(), "only a heartbeat older than the cutoff is expired");
        assertLeftAlone(id, worker + ":1");
    }

    @Test
    void locksAndStatusesHeldByAnotherWorkerAreLeftAlone() {
        beat(cutoff - 1);
        // the copy's task was taken over by another worker meanwhile: the lock and the hash are its
        String id = running("other:9");

        assertEquals(1, reap().size(), "the stale copy still goes back");

        assertLeftAlone(id, "other:9");
    }

    @Test
    void aWorkerWithoutAnyHeartbeatIsReaped() {
        String id = running(worker + ":1");

        assertEquals(1, reap().size());
        assertRequeued(id);
    }

    @Test
    void aReapedWorkerStaysListedUntilItsHeartbeatIsOlderThanTheForgetLine() {
        beat(forgetBefore + 5_000);
        running(worker + ":1");
        reap();
        assertEquals(forgetBefore + 5_000, lab.zscore(keys.workers(partition), worker),
                "a copy it still moves in must be found by the next reaper turn");

        beat(forgetBefore - 1);
        reap();
        assertNull(lab.zscore(keys.workers(partition), worker), "long dead with an empty list: forgotten");
    }

    @Test
    void atShutdownTheWholeListGoesBackAndAnExpiredHeartbeatIsLeftBehind() {
        beat(cutoff + 5_000);
        String a = running(worker + ":1");
        String b = running(worker + ":2");

        assertEquals(2, requeue(RequeueScript.Call.all(partition, worker, EXPIRY + 1)).size());
        long ended = lab.serverMillis();

        assertEquals(List.of(), lab.lrange(keys.processing(partition, worker)));
        assertEquals(2, lab.lrange(keys.pending(partition)).size());
        assertRequeued(a);
        assertRequeued(b);
        double left = lab.zscore(keys.workers(partition), worker);
        assertTrue(left >= started - EXPIRY - 1 && left <= ended - EXPIRY - 1,
                "expired by Redis's clock, so that a copy still landing in its list is requeued by the reaper: " + left);
    }

    @Test
    void givenCopiesGoBackButTheLocksOfExecutionsStillRunningStay() {
        String lost = running(worker + ":1");
        String runs = running(worker + ":2");
        String untouched = running(worker + ":3");
        List<String> list = lab.lrange(keys.processing(partition, worker));
        String lostEnvelope = Envelopes.flaky(lost, 0);
        String runsEnvelope = Envelopes.flaky(runs, 0);
        String notInTheList = Envelopes.flaky(uniqueId("gone"), 0);

        List<String> moved = requeue(RequeueScript.Call.given(partition, worker,
                List.of(lostEnvelope, runsEnvelope, notInTheList), List.of(worker + ":2")));

        assertEquals(2, moved.size(), "a copy that is not in the list is not pushed: " + moved);
        assertEquals(List.of(Envelopes.flaky(untouched, 0)), lab.lrange(keys.processing(partition, worker)),
                "copies not given stay: " + list);
        assertEquals(List.of(lostEnvelope, runsEnvelope), lab.lrange(keys.pending(partition)));
        assertRequeued(lost);
        assertLeftAlone(runs, worker + ":2");
    }

    @Test
    void anUnreadableCopyGoesBackAsUnknown() {
        beat(cutoff - 1);
        lab.call("LPUSH", keys.processing(partition, worker), "{not json");

        assertEquals(List.of("unknown"), reap());
        assertEquals(List.of("{not json"), lab.lrange(keys.pending(partition)));
    }
}
