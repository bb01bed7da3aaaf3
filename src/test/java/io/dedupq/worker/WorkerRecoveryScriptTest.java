package io.dedupq.worker;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * The edges of "never lost" between a worker's heartbeat, its processing list and the reaper,
 * end to end: a worker that left still has late arrivals recovered, and a producer's odd
 * timestamp fails its task without breaking the status reads. (claim.lua's own edges, a worker
 * presumed dead claiming nothing and a moved copy the reaper took back: lua/ClaimContractTest.)
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

    @Test
    void aCopyLandingInTheListOfAWorkerThatLeftIsRecoveredByTheReaper() {
        String leaver = uniqueId("leaver");
        String id = uniqueId("late");
        // the worker left at shutdown: requeue.lua "all" leaves an expired heartbeat behind
        redis.script(RequeueScript.Call.all(whole(FLAKY), leaver, 60_000).script(keys));
        // a BLMOVE still under way moved one more copy in
        redis.lpush(keys.processing(whole(FLAKY), leaver), Envelopes.flaky(id, 0));

        awaitStatus(id, "succeeded");
        assertEquals(1, handler.executions(id).size());
        assertEquals(0, redis.llen(keys.processing(whole(FLAKY), leaver)));
    }

    @Test
    void aProducersFractionalTimestampFailsTheTaskButNeverTheStatusReads() {
        String id = uniqueId("float-ts");
        redis.lpush(keys.pending(whole(FLAKY)), "{\"id\":\"" + id + "\",\"type\":\"flaky\",\"payload\":{\"failures\":0},"
                + "\"attempt\":0,\"enqueuedAt\":1e17}");

        long enqueuedAt = awaitStatus(id, "failed").getLong("enqueuedAt");

        assertEquals(String.valueOf(enqueuedAt), redis.hget(keys.task(whole(FLAKY), id), "enqueuedAt"),
                "stored as a whole number that reads back");
        assertEquals(0, handler.executions(id).size());
    }
}
