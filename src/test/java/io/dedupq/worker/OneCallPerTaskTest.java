package io.dedupq.worker;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.RankedHandler;
import io.dedupq.support.RedisMonitor;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The call that records an outcome also claims the next task, for the slot that outcome frees (as
 * BullMQ's moveToFinished returns the next job): on a queue with one slot a backlog costs one
 * claim.lua call per task, not one to record and one to claim, and the tasks still run one at a
 * time, in order; with {@code dedupq.durability.replicas} at its default 0, no WAIT follows them.
 * Calls are counted by Redis's MONITOR, as the server saw them.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class OneCallPerTaskTest {

    private static final int TASKS = 200;

    @Inject
    RankedHandler.Strict ranked;

    @Inject
    RedisKeys keys;

    @Inject
    TestRedis redis;

    @ConfigProperty(name = "quarkus.redis.hosts")
    String redisUrl;

    @Test
    void aBacklogOnOneSlotCostsOneClaimCallPerTask() throws Exception {
        String pending = keys.pending(whole(RankedHandler.Strict.TYPE));
        String prefix = uniqueId("one-call");
        List<String> ids = new ArrayList<>();
        List<String> envelopes = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            ids.add(prefix + "-" + i);
            envelopes.add("{\"id\":\"" + ids.get(i) + "\",\"type\":\"ranked\",\"payload\":{},\"attempt\":0,\"enqueuedAt\":1}");
        }
        // the client sends the command's name in lower case
        String claimCall = "\"evalsha\" \"" + LuaScript.CLAIM.sha() + "\"";
        Predicate<String> claim = line -> line.toLowerCase(Locale.ROOT).contains(claimCall)
                && line.contains("\"" + pending + "\"");
        Predicate<String> wait = line -> line.toLowerCase(Locale.ROOT).contains("] \"wait\"");
        try (RedisMonitor monitor = new RedisMonitor(redisUrl, claim.or(wait))) {
            // LPUSH puts the last one at the head; the owner takes from the tail
            redis.lpush(pending, envelopes.toArray(String[]::new));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> ranked.starts().stream().filter(id -> id.startsWith(prefix)).count() == TASKS);
            List<String> seen = monitor.lines();
            assertEquals(List.of(), seen.stream().filter(wait).toList(), "dedupq.durability.replicas=0: no WAIT after a call");
            long calls = seen.stream().filter(claim).count();
            // one call per task, plus the one that finds pending empty; with one slot no call claims
            // two, so fewer calls than tasks would mean the count missed some
            assertTrue(calls >= TASKS && calls <= TASKS + 3, calls + " claim.lua calls for " + TASKS + " tasks");
        }
        assertEquals(ids, ranked.starts().stream().filter(id -> id.startsWith(prefix)).toList(),
                "one slot: the tasks started in the order they were pushed");
        assertEquals(1, ranked.peakRunning(), "one slot: never two executions at once");
    }
}
