package io.dedupq.worker;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Concurrently;
import io.dedupq.support.Envelopes;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Two workers calling claim.lua at the same time on copies of the same ids: each id is claimed
 * by exactly one of them, the other copy is dropped as a duplicate. The queue is a fresh one
 * that no worker consumes, so only the two racers touch it.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class ClaimRaceTest {

    private static final int IDS = 500;
    private static final List<String> WORKERS = List.of("racer-a", "racer-b");

    @Inject
    RedisCalls calls;

    @Inject
    RedisKeys keys;

    @Inject
    TestRedis redis;

    /** What one racer got: the ids it claimed with their fences, and how many copies it dropped. */
    record Haul(String worker, Map<String, Long> fenceById, long duplicates, long deadLettered) {
    }

    @Test
    void twoWorkersRacingOnEveryIdClaimEachIdExactlyOnce() {
        Partition partition = whole(uniqueId("race"));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < IDS; i++) {
            String id = "task-" + i;
            ids.add(id);
            // both copies side by side, so the two racers tend to take them in the same instant
            redis.lpush(keys.pending(partition), Envelopes.flaky(id, 0), Envelopes.flaky(id, 0));
        }

        List<Haul> hauls = Concurrently.run(2, 2, i -> drain(partition, WORKERS.get(i)));

        Map<String, String> claimedBy = new HashMap<>();
        Set<Long> fences = new HashSet<>();
        for (Haul haul : hauls) {
            for (Map.Entry<String, Long> claim : haul.fenceById().entrySet()) {
                String other = claimedBy.put(claim.getKey(), haul.worker());
                assertEquals(null, other, claim.getKey() + " was claimed by " + other + " and " + haul.worker());
                assertTrue(fences.add(claim.getValue()), "fence " + claim.getValue() + " handed out twice");
                assertEquals(haul.worker() + ":" + claim.getValue(), redis.get(keys.lock(partition, claim.getKey())),
                        "the lock of " + claim.getKey() + " holds its claimer's token");
            }
            assertEquals(haul.fenceById().size(), redis.llen(keys.processing(partition, haul.worker())),
                    "only claimed copies stay in " + haul.worker() + "'s processing list");
            assertEquals(0, haul.deadLettered());
            assertTrue(haul.fenceById().size() > 0, haul.worker() + " took part in the race");
        }
        assertEquals(Set.copyOf(ids), claimedBy.keySet(), "every id was claimed");
        assertEquals(IDS, hauls.stream().mapToLong(Haul::duplicates).sum(), "the other copy of each id was a duplicate");
        assertEquals(Integer.toString(IDS), redis.hget(keys.stats(partition), "skipped_locked"));
        assertEquals(0, redis.llen(keys.pending(partition)));
    }

    /** Claims one copy per call, as a busy worker with one free slot does, until pending is empty. */
    private Haul drain(Partition partition, String worker) {
        Map<String, Long> fenceById = new HashMap<>();
        long duplicates = 0;
        long dead = 0;
        // claim.lua claims only for a worker with a fresh heartbeat on the queue
        redis.zadd(keys.workers(partition), System.currentTimeMillis(), worker);
        while (true) {
            ClaimScript.Reply reply = ClaimScript.Reply.read(calls.script(
                    new ClaimScript.Call(partition, worker, 1, null, 60_000, 60_000, 60_000, 60_000, List.of()).script(keys)));
            assertEquals(true, reply.registered(), worker + " is registered");
            duplicates += reply.dropped().size();
            dead += reply.deadLettered();
            if (reply.claims().isEmpty() && reply.dropped().isEmpty() && reply.deadLettered() == 0) {
                return new Haul(worker, fenceById, duplicates, dead);
            }
            for (Claim claim : reply.claims()) {
                Long previous = fenceById.put(claim.id(), claim.fence());
                assertEquals(null, previous, worker + " claimed " + claim.id() + " twice");
            }
        }
    }
}
