package io.dedupq.worker;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Envelopes;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * claim.lua takes up to N tasks, not N copies: duplicates it drops on the way do not use up the
 * free slots it was asked to fill, so a backlog with duplicates keeps every slot busy. It moves at
 * most 4 N copies per call, so a long run of duplicates cannot make one call take long. Fences
 * grow by one per lock taken within a call, and every call's are larger than the last call's.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class ClaimScriptTest {

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    /** claim.lua for {@code max} free slots of a worker with a fresh heartbeat, on a queue no dispatcher runs. */
    private Response claim(String queue, int max) {
        long now = System.currentTimeMillis();
        redis.zadd(keys.workers(queue), now, "w1");
        return redis.script(LuaScript.CLAIM,
                List.of(keys.pending(queue), keys.processing(queue, "w1"), keys.fence(queue), keys.stats(queue),
                        keys.dead(queue), keys.workers(queue)),
                List.of(keys.base(queue), Integer.toString(max), "60000", "w1", Long.toString(now), queue, "",
                        Long.toString(now - 60_000)));
    }

    /** Pushes copies so that the first one pushed is the first one claimed (workers take from the right). */
    private void pending(String queue, List<String> envelopes) {
        for (String envelope : envelopes) {
            redis.lpush(keys.pending(queue), envelope);
        }
    }

    private static List<String> claimedIds(Response reply) {
        List<String> ids = new ArrayList<>();
        for (int i = 3; i + 4 < reply.size(); i += 5) {
            ids.add(reply.get(i).toString());
        }
        return ids;
    }

    @Test
    void duplicatesOnTheWayDoNotUseUpTheSlots() {
        String queue = uniqueId("claim-n");
        String done1 = uniqueId("done");
        String done2 = uniqueId("done");
        redis.set(keys.done(queue, done1), "succeeded", 60_000);
        redis.set(keys.done(queue, done2), "succeeded", 60_000);
        String a = uniqueId("a");
        String b = uniqueId("b");
        String c = uniqueId("c");
        pending(queue, List.of(Envelopes.flaky(done1, 0), Envelopes.flaky(a, 0), Envelopes.flaky(done2, 0),
                Envelopes.flaky(b, 0), Envelopes.flaky(c, 0)));

        Response reply = claim(queue, 2);

        assertEquals(List.of(a, b), claimedIds(reply));
        assertEquals(4, reply.get(1).size(), "two (type, reason) pairs: both done copies dropped");
        assertEquals(1, redis.llen(keys.pending(queue)), "the third task waits for the next call");
        assertEquals(2, redis.llen(keys.processing(queue, "w1")));
        // (id, envelope, token, fence, type) per claimed task
        assertEquals("flaky", reply.get(7).toString(), "the type comes with each claim");
        long first = reply.get(6).toLong();
        long second = reply.get(11).toLong();
        assertEquals(first + 1, second, "one fence per lock taken");
        assertTrue(Long.parseLong(redis.get(keys.fence(queue))) >= second, "the counter is at or past the last fence");
        String d = uniqueId("d");
        pending(queue, List.of(Envelopes.flaky(d, 0)));
        assertTrue(claim(queue, 2).get(6).toLong() > second, "the next call's fences are larger");
    }

    @Test
    void aLongRunOfDuplicatesEndsTheCallAfterFourCopiesPerSlot() {
        String queue = uniqueId("claim-run");
        List<String> copies = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String id = uniqueId("done");
            redis.set(keys.done(queue, id), "succeeded", 60_000);
            copies.add(Envelopes.flaky(id, 0));
        }
        copies.add(Envelopes.flaky(uniqueId("fresh"), 0));
        pending(queue, copies);

        Response reply = claim(queue, 2);

        assertEquals(List.of(), claimedIds(reply));
        assertEquals(16, reply.get(1).size(), "eight copies dropped");
        assertEquals(3, redis.llen(keys.pending(queue)));
        assertEquals(0, redis.llen(keys.processing(queue, "w1")));
    }
}
