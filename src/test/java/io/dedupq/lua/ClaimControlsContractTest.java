package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.DedupqConfig.QueueConfig;
import io.dedupq.config.DedupqConfig.QueueConfig.PriorityOrder;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RateLimit;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.dedupq.queue.TaskStatus;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Envelopes;
import io.dedupq.support.ScriptLab;
import io.dedupq.worker.Claim;
import io.dedupq.worker.ClaimScript;
import io.dedupq.worker.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * claim.lua's controls, with raw script calls: a paused queue starts nothing (a BLMOVE'd copy
 * goes back where it came from) but still records outcomes; a rate limit starts at most N tasks
 * per window on Redis's clock, says how long to wait, and leaves the rest waiting untouched.
 * Group concurrency and the group rate limit park a full group's copies while other groups flow.
 */
class ClaimControlsContractTest {

    private static final long FRESHNESS = 10_000;
    private static final long TTL = 30_000;
    private static final long WINDOW = 86_400_000;
    private static final String WORKER = "w1";
    private static final RateLimit TWO_A_MINUTE = new RateLimit(2, Duration.ofMinutes(1));

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final String queue = uniqueId("controls");
    private final Partition partition = whole(queue);
    private final long now = lab.serverMillis();

    private ClaimScript.Reply claim(int max, String moved, RateLimit rate, List<Outcome> outcomes) {
        return claim(max, moved, rate, 0, outcomes);
    }

    private ClaimScript.Reply claim(int max, String moved, RateLimit rate, int groupConcurrency, List<Outcome> outcomes) {
        return claim(max, moved, rate, groupConcurrency, null, outcomes);
    }

    private ClaimScript.Reply claim(int max, String moved, RateLimit rate, int groupConcurrency, RateLimit groupRate,
            List<Outcome> outcomes) {
        lab.call("ZADD", keys.workers(partition), now, WORKER);
        ScriptCall call = new ClaimScript.Call(partition, WORKER, max, moved, TTL, FRESHNESS, WINDOW, WINDOW,
                QueueConfig.DEFAULT_DEDUP_BUCKETS, outcomes, rate, groupConcurrency, PriorityOrder.STRICT, groupRate).script(keys);
        return ClaimScript.Reply.read(lab.eval(LuaScript.CLAIM, call.keys(), call.args()));
    }

    private ClaimScript.Reply claimGroupRated(int groupConcurrency, RateLimit groupRate, List<Outcome> outcomes) {
        return claim(8, "", null, groupConcurrency, groupRate, outcomes);
    }

    private String groupRateLog(String group) {
        return keys.base(partition) + "group-rate:" + group;
    }

    private ClaimScript.Reply claim(int max, RateLimit rate) {
        return claim(max, "", rate, List.of());
    }

    /** Pushes copies so that the first one given is the first one claimed (workers take from the right). */
    private void pending(String... envelopes) {
        for (String envelope : envelopes) {
            lab.call("LPUSH", keys.pending(partition), envelope);
        }
    }

    private ClaimScript.Reply claimGrouped(int groupConcurrency, List<Outcome> outcomes) {
        return claim(8, "", null, groupConcurrency, outcomes);
    }

    private static String grouped(String id, String group) {
        return Envelopes.flaky(id, 0).replace("\"attempt\":0", "\"group\":\"" + group + "\",\"attempt\":0");
    }

    private static Outcome succeeded(Claim claim) {
        return new Outcome(claim, "flaky", 0, TaskStatus.SUCCEEDED, "", "", 0, false);
    }

    private String parked(String group) {
        return keys.base(partition) + "parked:" + group;
    }

    /** n fresh task ids, prefix1 .. prefixN. */
    private static List<String> fresh(String prefix, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            ids.add(uniqueId(prefix + i));
        }
        return ids;
    }

    private static List<String> ids(ClaimScript.Reply reply) {
        return reply.claims().stream().map(Claim::id).toList();
    }

    private void pause() {
        lab.call("SET", keys.paused(partition), "1");
    }

    @Test
    void aPausedQueueStartsNothingAndLeavesPendingAsItWas() {
        String a = uniqueId("a");
        String b = uniqueId("b");
        pending(Envelopes.flaky(a, 0), Envelopes.flaky(b, 0));
        pause();

        ClaimScript.Reply reply = claim(4, null);

        assertEquals(List.of(), reply.claims());
        assertEquals(ClaimScript.HeldBy.PAUSED, reply.held().by());
        assertFalse(reply.drained(), "pending is not empty: after the resume, claim.lua (not BLMOVE) asks again");
        assertEquals(List.of(Envelopes.flaky(b, 0), Envelopes.flaky(a, 0)), lab.lrange(keys.pending(partition)));
        assertNull(lab.hget(keys.task(partition, a), "status"), "no hash is started, no attempt counted");
        assertFalse(lab.exists(keys.lock(partition, a)));

        lab.call("DEL", keys.paused(partition));
        ClaimScript.Reply resumed = claim(4, null);
        assertEquals(List.of(a, b), ids(resumed), "resumed: in their order");
        assertEquals(ClaimScript.HeldBy.NONE, resumed.held().by());
    }

    @Test
    void aCopyBlmoveBroughtWhilePausedGoesBackToTheEndItCameFrom() {
        String a = uniqueId("a");
        String b = uniqueId("b");
        pending(Envelopes.flaky(a, 0), Envelopes.flaky(b, 0));
        String moved = lab.call("LMOVE", keys.pending(partition), keys.processing(partition, WORKER), "RIGHT", "LEFT")
                .toString();
        pause();

        ClaimScript.Reply reply = claim(1, moved, null, List.of());

        assertEquals(List.of(), reply.claims());
        assertEquals(List.of(), lab.lrange(keys.processing(partition, WORKER)));
        assertEquals(List.of(Envelopes.flaky(b, 0), Envelopes.flaky(a, 0)), lab.lrange(keys.pending(partition)),
                "the first in is still the next out");
    }

    @Test
    void outcomesAreRecordedWhileTheQueueIsPaused() {
        String id = uniqueId("running");
        pending(Envelopes.flaky(id, 0));
        Claim running = claim(1, null).claims().get(0);
        pause();

        ClaimScript.Reply reply = claim(1, "", null,
                List.of(succeeded(running)));

        assertEquals(List.of(ClaimScript.Recorded.RECORDED), reply.recorded());
        assertEquals("succeeded", lab.hget(keys.task(partition, id), "status"), "a running task finishes");
        assertFalse(lab.exists(keys.lock(partition, id)));
    }

    @Test
    void aRateLimitStartsAtMostNPerWindowAndSaysWhenTheNextMayStart() {
        String a = uniqueId("a");
        String b = uniqueId("b");
        String c = uniqueId("c");
        pending(Envelopes.flaky(a, 0), Envelopes.flaky(b, 0), Envelopes.flaky(c, 0));

        ClaimScript.Reply first = claim(8, TWO_A_MINUTE);

        assertEquals(List.of(a, b), ids(first), "two starts fill the window");
        assertEquals(ClaimScript.HeldBy.RATE, first.held().by(), "a full window holds the next claim already");
        long wait = first.held().waitMillis();
        assertTrue(wait > 0 && wait <= 60_000, "until the first start leaves the window: " + wait);
        List<String> log = lab.zrange(keys.rate(partition));
        assertEquals(2, log.size(), "one entry per start");
        assertEquals(first.claims().get(0).token(), log.get(0), "entries are the starts' tokens");
        long logged = lab.zscore(keys.rate(partition), log.get(0)).longValue();
        assertEquals(Long.parseLong(lab.hget(keys.task(partition, a), "startedAt")), logged,
                "scored by the claim's time on Redis's clock");
        long ttl = lab.pttl(keys.rate(partition));
        assertTrue(ttl > 0 && ttl <= 60_000, "the log expires with the window: " + ttl);

        ClaimScript.Reply second = claim(8, TWO_A_MINUTE);

        assertEquals(List.of(), second.claims());
        assertEquals(ClaimScript.HeldBy.RATE, second.held().by());
        assertEquals(List.of(Envelopes.flaky(c, 0)), lab.lrange(keys.pending(partition)), "the third waits in pending");
        assertNull(lab.hget(keys.task(partition, c), "attempts"), "not started, not retried, no attempt counted");
        assertEquals("2", lab.hget(keys.stats(partition), "rate_limited"), "both calls were cut short by the limit");
    }

    @Test
    void aStartLeavesTheWindowOnceItIsAWindowOld() {
        String a = uniqueId("a");
        String b = uniqueId("b");
        pending(Envelopes.flaky(a, 0), Envelopes.flaky(b, 0));
        RateLimit one = new RateLimit(1, Duration.ofMinutes(1));
        String token = claim(8, one).claims().get(0).token();
        assertEquals(List.of(), claim(8, one).claims());

        // the first start, moved back in time by exactly one window (Redis's clock moves on meanwhile)
        long serverNow = lab.serverMillis();
        lab.call("ZADD", keys.rate(partition), serverNow - 60_000, token);

        ClaimScript.Reply later = claim(8, one);

        assertEquals(List.of(b), ids(later), "a window after a start, its place is free");
        assertEquals(List.of(later.claims().get(0).token()), lab.zrange(keys.rate(partition)), "the old start is trimmed");
    }

    @Test
    void droppedDuplicatesDoNotUseTheRateLimit() {
        String finished = uniqueId("done");
        String fresh = uniqueId("fresh");
        lab.call("HSET", new DedupRecords(keys, partition, lab::hget).bucket(finished), finished,
                DedupRecords.value(now + 60_000, 1));
        pending(Envelopes.flaky(finished, 0), Envelopes.flaky(fresh, 0));

        ClaimScript.Reply reply = claim(8, new RateLimit(1, Duration.ofMinutes(1)));

        assertEquals(List.of(fresh), ids(reply), "only a start counts");
        assertEquals(1, reply.dropped().size());
    }

    @Test
    void withoutARateLimitNoLogIsKept() {
        String a = uniqueId("a");
        pending(Envelopes.flaky(a, 0));

        ClaimScript.Reply reply = claim(8, null);

        assertEquals(List.of(a), ids(reply));
        assertEquals(ClaimScript.HeldBy.NONE, reply.held().by());
        assertFalse(lab.exists(keys.rate(partition)));
    }

    @Test
    void aFullGroupsCopyIsParkedWhileOtherGroupsFlow() {
        String a1 = uniqueId("a1");
        String a2 = uniqueId("a2");
        String b1 = uniqueId("b1");
        String c1 = uniqueId("c1");
        pending(grouped(a1, "acc-A"), grouped(a2, "acc-A"), grouped(b1, "acc-B"), Envelopes.flaky(c1, 0));

        ClaimScript.Reply reply = claimGrouped(1, List.of());

        assertEquals(List.of(a1, b1, c1), ids(reply), "no head-of-line blocking: B and the ungrouped task run");
        assertEquals(List.of(grouped(a2, "acc-A")), lab.lrange(parked("acc-A")), "the second of A waits aside");
        assertEquals(List.of("acc-A"), lab.smembers(keys.parkedGroups(partition)));
        assertNull(lab.hget(keys.task(partition, a2), "attempts"), "parked, not started: no attempt counted");
        assertEquals("1", lab.hget(keys.stats(partition), "group_waiting"));
        assertEquals(ClaimScript.HeldBy.PARKED, reply.held().by(), "pending is drained but a copy waits aside: look again");
        assertEquals(a1, lab.hget(keys.base(partition) + "group:acc-A", reply.claims().get(0).token()),
                "the running execution holds the group's slot");
    }

    @Test
    void anOutcomeFreesTheSlotAndBringsTheNextParkedCopyBack() {
        String a1 = uniqueId("a1");
        String a2 = uniqueId("a2");
        String a3 = uniqueId("a3");
        pending(grouped(a1, "acc-A"), grouped(a2, "acc-A"), grouped(a3, "acc-A"));
        Claim first = claimGrouped(1, List.of()).claims().get(0);

        ClaimScript.Reply recorded = claimGrouped(1, List.of(succeeded(first)));

        assertEquals(List.of(), recorded.claims(), "the call claims before it records: the slot was not free yet");
        assertFalse(recorded.drained(), "pending is empty, but a parked copy may start now: the owner asks again, no BLMOVE");
        assertFalse(lab.exists(keys.base(partition) + "group:acc-A"), "the finished execution left its group at once");
        ClaimScript.Reply next = claimGrouped(1, List.of());
        assertEquals(List.of(a2), ids(next), "one at a time, in their order");
        assertEquals(List.of(grouped(a3, "acc-A")), lab.lrange(parked("acc-A")));
        assertEquals("1", lab.hget(keys.stats(partition), "group_waiting"));
        assertEquals(List.of(next.claims().get(0).token()), lab.hkeys(keys.base(partition) + "group:acc-A"),
                "the finished execution left the group");

        claimGrouped(1, List.of(succeeded(next.claims().get(0))));
        assertEquals(List.of(a3), ids(claimGrouped(1, List.of())));
        assertFalse(lab.exists(parked("acc-A")));
        assertEquals(List.of(), lab.smembers(keys.parkedGroups(partition)), "no parked copies: the group leaves the index");
        assertEquals("0", lab.hget(keys.stats(partition), "group_waiting"));
    }

    @Test
    void aGroupAnOutcomeFreedIsClaimedNextHoweverManyGroupsWait() {
        // more groups wait than a claim picks at random; all of them but the freed one are full
        int groups = 200;
        List<String> firsts = fresh("first", groups);
        List<String> seconds = fresh("second", groups);
        for (int g = 0; g < groups; g++) {
            pending(grouped(firsts.get(g), "acc-" + g), grouped(seconds.get(g), "acc-" + g));
        }
        List<Claim> running = claim(2 * groups, "", null, 1, List.of()).claims();
        assertEquals(groups, running.size(), "one of each group runs, the other waits aside");
        Claim finishing = running.get(groups / 2);
        String group = "acc-" + groups / 2;
        String freed = keys.base(partition) + "parked-freed";

        ClaimScript.Reply recorded = claimGrouped(1, List.of(succeeded(finishing)));
        assertFalse(recorded.drained(), "the freed group has a copy waiting: the owner asks again");
        assertEquals(List.of(group), lab.smembers(freed), "the freed group is named for the next claim");

        ClaimScript.Reply next = claimGrouped(1, List.of());
        assertEquals(List.of(seconds.get(groups / 2)), ids(next), "the next claim takes it, not a random pick of the groups");
        assertFalse(lab.exists(freed), "taken: the group is no longer named");
    }

    @Test
    void aFreedGroupStaysNamedUntilItsRoomIsTaken() {
        List<String> copies = fresh("x", 5);
        copies.forEach(id -> pending(grouped(id, "acc-X")));
        List<Claim> running = claim(5, "", null, 2, List.of()).claims();
        assertEquals(2, running.size(), "two run, three wait aside");
        String freed = keys.base(partition) + "parked-freed";

        claim(0, "", null, 2, running.stream().map(ClaimControlsContractTest::succeeded).toList());
        assertEquals(List.of("acc-X"), lab.smembers(freed), "two slots freed, three copies waiting");

        assertEquals(List.of(copies.get(2)), ids(claim(1, "", null, 2, List.of())));
        assertEquals(List.of("acc-X"), lab.smembers(freed), "a slot is still free and a copy waits: still named");
        assertEquals(List.of(copies.get(3)), ids(claim(1, "", null, 2, List.of())));
        assertFalse(lab.exists(freed), "the group is full again: an outcome names it next time");
    }

    @Test
    void anExpiredLockFreesItsSlotForAnyWorkersNextCall() {
        String a1 = uniqueId("a1");
        String a2 = uniqueId("a2");
        pending(grouped(a1, "acc-A"), grouped(a2, "acc-A"));
        claimGrouped(1, List.of());
        assertEquals(List.of(), claimGrouped(1, List.of()).claims(), "the group is full");

        // a crashed worker's lock runs out
        lab.call("DEL", keys.lock(partition, a1));

        assertEquals(List.of(a2), ids(claimGrouped(1, List.of())));
    }

    @Test
    void noGroupEverHasMoreRunningThanItsLimit() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(uniqueId("g" + i));
            pending(grouped(ids.get(i), "busy"));
        }

        ClaimScript.Reply reply = claimGrouped(2, List.of());

        assertEquals(ids.subList(0, 2), ids(reply));
        assertEquals(3, lab.lrange(parked("busy")).size());
        assertEquals(List.of(), claimGrouped(2, List.of()).claims(), "still two running");
        assertEquals(3, lab.lrange(parked("busy")).size(), "a parked copy brought back to a full group is parked again");
    }

    @Test
    void aGroupThatIsNoIdIsIgnoredAndWithoutALimitGroupsCostNothing() {
        String odd = uniqueId("odd");
        String a1 = uniqueId("a1");
        String a2 = uniqueId("a2");
        pending(grouped(odd, "no spaces allowed"), grouped(a1, "acc-A"), grouped(a2, "acc-A"));

        assertEquals(List.of(odd, a1, a2), ids(claimGrouped(0, List.of())), "group-concurrency 0: no limit");
        assertFalse(lab.exists(keys.base(partition) + "group:acc-A"), "and no group keys");
    }

    @Test
    void aGroupRateLimitStartsAtMostNOfAGroupPerWindowWhileOtherGroupsFlow() {
        List<String> a = fresh("a", 3);
        String b1 = uniqueId("b1");
        String loose = uniqueId("loose");
        a.forEach(id -> pending(grouped(id, "acc-A")));
        pending(grouped(b1, "acc-B"), Envelopes.flaky(loose, 0));

        ClaimScript.Reply reply = claimGroupRated(0, TWO_A_MINUTE, List.of());

        assertEquals(List.of(a.get(0), a.get(1), b1, loose), ids(reply), "two of A fill its window; B and the ungrouped task run");
        assertEquals(List.of(grouped(a.get(2), "acc-A")), lab.lrange(parked("acc-A")), "the third of A waits aside");
        assertNull(lab.hget(keys.task(partition, a.get(2)), "attempts"), "parked, not started: no attempt counted");
        assertEquals("1", lab.hget(keys.stats(partition), "group_rate_limited"));
        assertEquals("1", lab.hget(keys.stats(partition), "group_waiting"));
        assertEquals(ClaimScript.HeldBy.PARKED, reply.held().by());
        long wait = reply.held().waitMillis();
        assertTrue(wait > 0 && wait <= 60_000, "an idle owner looks again when A's window frees: " + wait);
        List<String> log = lab.zrange(groupRateLog("acc-A"));
        assertEquals(List.of(reply.claims().get(0).token(), reply.claims().get(1).token()), log, "one entry per start");
        assertEquals(Long.parseLong(lab.hget(keys.task(partition, a.get(0)), "startedAt")),
                lab.zscore(groupRateLog("acc-A"), log.get(0)).longValue(), "scored by the claim's time on Redis's clock");
        long ttl = lab.pttl(groupRateLog("acc-A"));
        assertTrue(ttl > 0 && ttl <= 60_000, "the log expires with the window: " + ttl);
        assertFalse(lab.exists(keys.base(partition) + "group:acc-A"), "no group concurrency: no slots kept");
        assertFalse(lab.exists(keys.rate(partition)), "no queue rate limit: no queue log");
    }

    @Test
    void aParkedCopyStartsOnceItsGroupsWindowHasSlidWithoutAnyOutcome() {
        List<String> a = fresh("a", 2);
        a.forEach(id -> pending(grouped(id, "acc-A")));
        RateLimit one = new RateLimit(1, Duration.ofMinutes(1));
        String token = claimGroupRated(0, one, List.of()).claims().get(0).token();
        ClaimScript.Reply full = claimGroupRated(0, one, List.of());
        assertEquals(List.of(), full.claims(), "A's window is full");
        assertEquals(ClaimScript.HeldBy.PARKED, full.held().by());
        assertTrue(full.held().waitMillis() > 0, "looking at a parked group tells when it frees too");
        assertEquals("1", lab.hget(keys.stats(partition), "group_rate_limited"), "a copy is counted once, when set aside");

        // a1's start, moved back in time by exactly one window (Redis's clock moves on meanwhile)
        lab.call("ZADD", groupRateLog("acc-A"), lab.serverMillis() - 60_000, token);

        ClaimScript.Reply later = claimGroupRated(0, one, List.of());
        assertEquals(a.subList(1, 2), ids(later), "a window after a1 started, a2 starts; a1 is still running");
        assertEquals(List.of(later.claims().get(0).token()), lab.zrange(groupRateLog("acc-A")), "the old start is trimmed");
        assertFalse(lab.exists(parked("acc-A")));
        assertEquals(List.of(), lab.smembers(keys.parkedGroups(partition)));
        assertEquals("0", lab.hget(keys.stats(partition), "group_waiting"));
        assertEquals(ClaimScript.HeldBy.NONE, later.held().by(), "nothing parked: BLMOVE may wait its whole timeout");
    }

    @Test
    void theWaitIsUntilTheSoonestParkedGroupFrees() {
        List<String> a = fresh("a", 2);
        List<String> b = fresh("b", 2);
        RateLimit one = new RateLimit(1, Duration.ofMinutes(1));
        pending(grouped(a.get(0), "acc-A"), grouped(b.get(0), "acc-B"));
        String token = claimGroupRated(0, one, List.of()).claims().get(0).token();
        // A's start half a window ago: A frees in 30 s, B in a minute
        lab.call("ZADD", groupRateLog("acc-A"), lab.serverMillis() - 30_000, token);
        pending(grouped(a.get(1), "acc-A"), grouped(b.get(1), "acc-B"));

        ClaimScript.Reply reply = claimGroupRated(0, one, List.of());

        assertEquals(List.of(), reply.claims());
        long wait = reply.held().waitMillis();
        assertTrue(wait > 0 && wait <= 30_000, "A frees first: " + wait);
    }

    @Test
    void withBothGroupLimitsEachHoldsItsOwn() {
        List<String> a = fresh("a", 3);
        a.forEach(id -> pending(grouped(id, "acc-A")));

        ClaimScript.Reply first = claimGroupRated(1, TWO_A_MINUTE, List.of());
        assertEquals(a.subList(0, 1), ids(first), "one at a time although the window has room for two");
        assertNull(lab.hget(keys.stats(partition), "group_rate_limited"), "set aside by the concurrency, not the rate");
        assertEquals(0, first.held().waitMillis(), "only an outcome or an expired lock frees A: no time to wait for");

        claimGroupRated(1, TWO_A_MINUTE, List.of(succeeded(first.claims().get(0))));
        ClaimScript.Reply second = claimGroupRated(1, TWO_A_MINUTE, List.of());
        assertEquals(a.subList(1, 2), ids(second));

        claimGroupRated(1, TWO_A_MINUTE, List.of(succeeded(second.claims().get(0))));
        ClaimScript.Reply third = claimGroupRated(1, TWO_A_MINUTE, List.of());
        assertEquals(List.of(), third.claims(), "A has a free slot, but its window holds two starts");
        assertEquals(List.of(grouped(a.get(2), "acc-A")), lab.lrange(parked("acc-A")));
        assertTrue(third.held().waitMillis() > 0, "time frees A now");
    }
}
