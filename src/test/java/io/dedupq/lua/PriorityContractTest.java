package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.DedupqConfig.QueueConfig;
import io.dedupq.config.DedupqConfig.QueueConfig.PriorityOrder;
import io.dedupq.queue.CancelScript;
import io.dedupq.queue.EnqueueScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.Priority;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ReviveScript;
import io.dedupq.queue.ScriptCall;
import io.dedupq.support.ScriptLab;
import io.dedupq.worker.Claim;
import io.dedupq.worker.ClaimScript;
import io.dedupq.worker.PromoteScript;
import io.dedupq.worker.RequeueScript;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Priority levels in the scripts: enqueue.lua pushes each task onto its level's list, claim.lua
 * takes the highest level first (strict) or every level by its share (weighted), FIFO within a
 * level, and promote.lua, requeue.lua and cancel.lua find a task's copies on its own level's list.
 */
class PriorityContractTest {

    private static final String WORKER = "w1";
    private static final long WINDOW = 60_000;

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final Partition partition = whole(uniqueId("prio"));

    private static String envelope(String id, int level) {
        return "{\"id\":\"" + id + "\",\"type\":\"flaky\",\"payload\":{\"failures\":0},\"attempt\":0,\"enqueuedAt\":1"
                + (level == Priority.DEFAULT ? "" : ",\"priority\":" + level) + "}";
    }

    /** enqueue.lua for tasks named {@code <level>-<n>} at the levels given, in one call, in this order. */
    private List<String> enqueue(int... levels) {
        List<String> ids = new ArrayList<>();
        List<EnqueueScript.Task> tasks = new ArrayList<>();
        for (int level : levels) {
            String id = level + "-" + ids.size();
            ids.add(id);
            tasks.add(new EnqueueScript.Task(id, "flaky", "d", envelope(id, level), level));
        }
        lab.eval(new EnqueueScript.Call(partition, 1_700_000_000_000L, QueueConfig.DEFAULT_DEDUP_BUCKETS, WINDOW, tasks)
                .script(keys));
        return ids;
    }

    /** claim.lua for up to {@code max} tasks (and {@code moved}, a copy BLMOVE took, or null): the ids claimed. */
    private List<String> claim(int max, String moved, PriorityOrder order) {
        lab.call("ZADD", keys.workers(partition), lab.serverMillis(), WORKER);
        ScriptCall call = new ClaimScript.Call(partition, WORKER, max, moved, 60_000, 10_000, WINDOW, WINDOW,
                QueueConfig.DEFAULT_DEDUP_BUCKETS, List.of(), null, 0, order, null).script(keys);
        return ClaimScript.Reply.read(lab.eval(call)).claims().stream().map(Claim::id).toList();
    }

    /** Claims one task at a time until none is left: the ids in the order they were claimed. */
    private List<String> claimAll(PriorityOrder order) {
        List<String> claimed = new ArrayList<>();
        for (List<String> one = claim(1, null, order); !one.isEmpty(); one = claim(1, null, order)) {
            claimed.addAll(one);
        }
        return claimed;
    }

    @Test
    void eachTaskGoesOntoItsLevelsListTheDefaultLevelOntoThePlainOne() {
        enqueue(5, 9, 0, 5);

        assertEquals(List.of("5-3", "5-0"), ids(keys.pending(partition)), "the default level keeps the plain list");
        assertEquals(List.of("9-1"), ids(keys.pending(partition, 9)));
        assertEquals(List.of("0-2"), ids(keys.pending(partition, 0)));
        assertEquals("9", lab.hget(keys.task(partition, "9-1"), "priority"), "the hash keeps a level other than the default");
        assertEquals(null, lab.hget(keys.task(partition, "5-0"), "priority"));
        assertEquals(List.of("0", "9"), levelsNamed(), "the claims look only at the levels the set names");
    }

    @Test
    void strictTakesTheHighestLevelFirstAndEachLevelInTheOrderItCame() {
        enqueue(0, 5, 9, 3, 9, 5, 0);

        assertEquals(List.of("9-2", "9-4", "5-1", "5-5", "3-3", "0-0", "0-6"), claimAll(PriorityOrder.STRICT));
        assertFalse(lab.exists(keys.levels(partition)), "each level leaves the set when the claim empties its list");
    }

    @Test
    void aLevelNamedWithoutTasksLeavesTheSetAndAnythingElseInItIsIgnored() {
        enqueue(5);
        lab.call("SADD", keys.levels(partition), "7", "x", "5", "12");

        assertEquals(List.of("5-0"), claim(1, null, PriorityOrder.STRICT));

        assertEquals(List.of(), levelsNamed(), "no list behind them: the claim forgets them");
    }

    @Test
    void aLevelsListAProducerFilledWithoutNamingTheLevelIsClaimedOnceThePromoterMendsTheSet() {
        enqueue(5);
        lab.call("LPUSH", keys.pending(partition, 8), envelope("own-8", 8));

        assertEquals(List.of("5-0"), claim(2, null, PriorityOrder.STRICT), "the claim looks only at named levels");

        lab.eval(new PromoteScript.Call(partition, 10).script(keys));

        assertEquals(List.of("8"), levelsNamed());
        assertEquals(List.of("own-8"), claim(2, null, PriorityOrder.STRICT));
    }

    @Test
    void aBatchClaimCrossesLevelsHighestFirst() {
        enqueue(0, 5, 9, 7);

        assertEquals(List.of("9-2", "7-3", "5-1"), claim(3, null, PriorityOrder.STRICT));
        assertEquals(List.of("0-0"), claim(3, null, PriorityOrder.STRICT));
    }

    @Test
    void weightedGivesALowLevelItsShareWhileAHighLevelIsBusy() {
        int[] levels = new int[24];
        Arrays.fill(levels, 9);
        levels[0] = 0;
        levels[1] = 0;
        enqueue(levels);

        List<String> order = claimAll(PriorityOrder.WEIGHTED);

        assertEquals(24, order.size());
        // level 9 weighs 10, level 0 weighs 1: a round of 11 turns has one for the low level (the first
        // round also has turns for enqueue's wake-up on the plain list, dropped when its turn comes)
        assertTrue(order.indexOf("0-0") < 22, "a low task starts while high ones keep waiting: " + order);
        assertTrue(order.indexOf("0-1") > order.indexOf("0-0"), order.toString());
        List<String> high = order.stream().filter(id -> id.startsWith("9-")).toList();
        List<String> fifo = new ArrayList<>();
        for (int i = 2; i < 24; i++) {
            fifo.add("9-" + i);
        }
        assertEquals(fifo, high, "FIFO within the level");
    }

    @Test
    void weightedWithOneLevelWaitingTakesItInOrder() {
        enqueue(2, 2, 2);

        assertEquals(List.of("2-0", "2-1", "2-2"), claimAll(PriorityOrder.WEIGHTED));
    }

    @Test
    void aTaskOfAnotherLevelLeavesAWakeUpOnTheEmptyPlainListThatTheClaimDropsAndClaimsPast() {
        enqueue(9);
        assertEquals(List.of(Priority.WAKE), lab.lrange(keys.pending(partition)), "what an idle worker's BLMOVE waits on");
        enqueue(8);
        assertEquals(List.of(Priority.WAKE), lab.lrange(keys.pending(partition)), "one wake-up is enough");

        // the worker's BLMOVE took the wake-up into its list; its one slot claims the highest task
        lab.call("LMOVE", keys.pending(partition), keys.processing(partition, WORKER), "RIGHT", "LEFT");
        assertEquals(List.of("9-0"), claim(1, Priority.WAKE, PriorityOrder.STRICT));

        assertEquals(List.of(envelope("9-0", 9)), lab.lrange(keys.processing(partition, WORKER)),
                "the wake-up is gone, the task is in the worker's list");
        assertEquals(List.of("8-0"), claim(1, null, PriorityOrder.STRICT));

        // a wake-up that no BLMOVE took is dropped by the claim that comes to it
        enqueue(7);
        assertEquals(List.of("7-0"), claim(1, null, PriorityOrder.STRICT), "higher than the wake-up's list");
        assertEquals(List.of(), claim(1, null, PriorityOrder.STRICT));
        assertEquals(List.of(), lab.lrange(keys.pending(partition)));
        assertEquals(3, lab.lrange(keys.processing(partition, WORKER)).size(), "three tasks, no wake-up");
        assertEquals(List.of(), lab.lrange(keys.dead(partition)), "a wake-up is no unparseable entry");
    }

    @Test
    void aRetryThatComesDueGoesBackToItsLevel() {
        String next = envelope("r-1", 8).replace("\"attempt\":0", "\"attempt\":1");
        lab.call("ZADD", keys.delayed(partition), 0, next);
        lab.call("ZADD", keys.delayed(partition), 0, envelope("r-2", 5));

        lab.eval(new PromoteScript.Call(partition, 10).script(keys));

        assertEquals(List.of(next), lab.lrange(keys.pending(partition, 8)));
        assertEquals(List.of(envelope("r-2", 5)), lab.lrange(keys.pending(partition)));
        assertEquals(List.of("8"), levelsNamed());
    }

    @Test
    void aRetryOfAnotherLevelWakesAWorkerWaitingOnTheEmptyPlainList() {
        String next = envelope("r-3", 2).replace("\"attempt\":0", "\"attempt\":1");
        lab.call("ZADD", keys.delayed(partition), 0, next);

        lab.eval(new PromoteScript.Call(partition, 10).script(keys));

        assertEquals(List.of(next), lab.lrange(keys.pending(partition, 2)));
        assertEquals(List.of(Priority.WAKE), lab.lrange(keys.pending(partition)));
    }

    @Test
    void aRequeuedCopyOfAnotherLevelWakesAWorkerWaitingOnTheEmptyPlainList() {
        lab.call("LPUSH", keys.processing(partition, WORKER), envelope("q-3", 9));

        lab.eval(RequeueScript.Call.all(partition, WORKER, 60_000).script(keys));

        assertEquals(List.of(envelope("q-3", 9)), lab.lrange(keys.pending(partition, 9)));
        assertEquals(List.of(Priority.WAKE), lab.lrange(keys.pending(partition)));
    }

    @Test
    void aRequeuedCopyGoesBackToItsLevel() {
        lab.call("LPUSH", keys.processing(partition, WORKER), envelope("q-1", 1));
        lab.call("LPUSH", keys.processing(partition, WORKER), envelope("q-2", 5));

        lab.eval(RequeueScript.Call.all(partition, WORKER, 60_000).script(keys));

        assertEquals(List.of(envelope("q-1", 1)), lab.lrange(keys.pending(partition, 1)));
        assertEquals(List.of(envelope("q-2", 5)), lab.lrange(keys.pending(partition)));
        assertEquals(List.of("1"), levelsNamed());
    }

    @Test
    void aRevivedDeadLetterGoesBackToItsLevelAndWakesAWorker() {
        String id = "dead-1";
        String record = "{\"id\":\"dead-1\",\"status\":\"failed\"}";
        lab.call("LPUSH", keys.dead(partition), record);
        lab.call("HSET", keys.task(partition, id), "status", "failed");

        lab.eval(new ReviveScript.Call(partition, id, record, envelope(id, 8), "flaky", 1L, 8).script(keys));

        assertEquals(List.of(envelope(id, 8)), lab.lrange(keys.pending(partition, 8)));
        assertEquals(List.of(Priority.WAKE), lab.lrange(keys.pending(partition)));
        assertEquals("8", lab.hget(keys.task(partition, id), "priority"), "GET /api/tasks and cancel read it there");
        assertEquals(List.of("8"), levelsNamed());
    }

    @Test
    void cancelTakesTheCopyOffItsLevelsList() {
        List<String> ids = enqueue(3, 3);

        lab.eval(new CancelScript.Call(partition, ids.get(0), WINDOW, WINDOW).script(keys));

        assertEquals(List.of(ids.get(1)), ids(keys.pending(partition, 3)));
    }

    private List<String> levelsNamed() {
        return lab.smembers(keys.levels(partition)).stream().sorted().toList();
    }

    private List<String> ids(String list) {
        return lab.lrange(list).stream().map(raw -> raw.replaceAll(".*\"id\":\"([^\"]+)\".*", "$1")).toList();
    }
}
