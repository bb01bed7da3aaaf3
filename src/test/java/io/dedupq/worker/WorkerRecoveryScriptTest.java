package io.dedupq.worker;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The edges of "never lost" between a worker's heartbeat, its processing list and the reaper:
 * a worker that is presumed dead claims nothing, a copy the reaper took back is not run by the
 * worker that moved it, and a worker that left still has late arrivals recovered.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class WorkerRecoveryScriptTest {

    private static final String FLAKY = "flaky";

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @Inject
    FlakyHandler handler;

    /** claim.lua as the Claimer calls it, for {@code worker} on a queue no dispatcher consumes. */
    private Response claim(String queue, String worker, String moved, long heartbeatCutoff) {
        // one free slot: the moved copy is all this call may take
        return redis.script(LuaScript.CLAIM,
                List.of(keys.pending(queue), keys.processing(queue, worker), keys.fence(queue), keys.stats(queue),
                        keys.dead(queue), keys.workers(queue)),
                List.of(keys.base(queue), "1", "60000", worker, Long.toString(System.currentTimeMillis()), queue, moved,
                        Long.toString(heartbeatCutoff)));
    }

    @Test
    void aWorkerWithAStaleHeartbeatClaimsNothingAndGivesItsMovedCopyBack() {
        String queue = uniqueId("stale");
        String id = uniqueId("task");
        String envelope = Envelopes.flaky(id, 0);
        redis.zadd(keys.workers(queue), 1_000, "paused");
        redis.lpush(keys.processing(queue, "paused"), envelope);

        Response reply = claim(queue, "paused", envelope, 2_000);

        assertEquals(0, reply.get(0).toInteger(), "not registered");
        assertEquals(List.of(envelope), redis.lrange(keys.pending(queue)), "the moved copy is back on pending");
        assertEquals(0, redis.llen(keys.processing(queue, "paused")));
        assertFalse(redis.exists(keys.lock(queue, id)), "no lock taken");
    }

    @Test
    void aMovedCopyThatTheReaperTookBackIsNotRun() {
        String queue = uniqueId("taken-back");
        String id = uniqueId("task");
        String envelope = Envelopes.flaky(id, 0);
        long now = System.currentTimeMillis();
        redis.zadd(keys.workers(queue), now, "resumed");
        // BLMOVE had moved it, then the reaper put it back on pending while the worker was paused
        redis.lpush(keys.pending(queue), envelope);

        Response reply = claim(queue, "resumed", envelope, now - 60_000);

        assertEquals(1, reply.get(0).toInteger());
        assertEquals(3, reply.size(), "nothing claimed: " + reply);
        assertFalse(redis.exists(keys.lock(queue, id)), "no lock taken");
        assertEquals(List.of(envelope), redis.lrange(keys.pending(queue)), "the copy waits on pending for anyone");
    }

    @Test
    void aCopyLandingInTheListOfAWorkerThatLeftIsRecoveredByTheReaper() {
        String leaver = uniqueId("leaver");
        String id = uniqueId("late");
        // the worker left at shutdown: requeue.lua "all" leaves an expired heartbeat behind
        redis.script(LuaScript.REQUEUE,
                List.of(keys.processing(FLAKY, leaver), keys.pending(FLAKY), keys.workers(FLAKY)),
                List.of(keys.base(FLAKY), leaver, "all", Long.toString(System.currentTimeMillis() - 60_000), "0"));
        // a BLMOVE still under way moved one more copy in
        redis.lpush(keys.processing(FLAKY, leaver), Envelopes.flaky(id, 0));

        awaitStatus(id, "succeeded");
        assertEquals(1, handler.executions(id).size());
        assertEquals(0, redis.llen(keys.processing(FLAKY, leaver)));
    }

    @Test
    void aProducersFractionalTimestampFailsTheTaskButNeverTheStatusReads() {
        String id = uniqueId("float-ts");
        redis.lpush(keys.pending(FLAKY), "{\"id\":\"" + id + "\",\"type\":\"flaky\",\"payload\":{\"failures\":0},"
                + "\"attempt\":0,\"enqueuedAt\":1e17}");

        long enqueuedAt = awaitStatus(id, "failed").getLong("enqueuedAt");

        assertEquals(String.valueOf(enqueuedAt), redis.hget(keys.task(FLAKY, id), "enqueuedAt"),
                "stored as a whole number that reads back");
        assertEquals(0, handler.executions(id).size());
    }
}
