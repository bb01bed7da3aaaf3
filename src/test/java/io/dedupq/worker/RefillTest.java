package io.dedupq.worker;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.AppJvm.sleep;
import static io.dedupq.support.Partitions.whole;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A backlog is worked off by claim.lua calls that record outcomes and claim the next tasks in
 * one call. Redis losing its script cache in the middle (as after a restart) must neither run a
 * task twice nor leave a claimed copy behind in this worker's processing list: a NOSCRIPT reply
 * means the call did not run, and it goes again as EVAL. The cache is flushed three times while
 * outcomes are being recorded, each time with the script loaded again at once by another client.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class RefillTest {

    private static final String QUEUE = "flaky";
    private static final int TASKS = 600;

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    @Inject
    FlakyHandler handler;

    @Test
    void aBacklogRunsOnceEachThroughScriptCacheFlushesAndLeavesNoCopyBehind() {
        String prefix = uniqueId("refill");
        List<String> ids = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            Request push = Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE)));
            for (int i = 0; i < TASKS / 3; i++) {
                String id = prefix + "-" + round + "-" + i;
                ids.add(id);
                // a few milliseconds each, so that outcomes are recorded while the backlog waits
                push.arg(Envelopes.flakySleeping(id, 10));
            }
            redis.send(push);
            sleep(80);
            redis.send(Request.cmd(Command.SCRIPT).arg("FLUSH"));
            // loaded again at once by another client: the worker's next EVALSHA may or may not find it
            redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(LuaScript.CLAIM.source()));
        }

        await().atMost(Duration.ofSeconds(40)).until(() -> ids.stream().allMatch(id -> "succeeded".equals(status(id))));
        for (String id : ids) {
            assertEquals(1, handler.executions(id).size(), "executions of " + id);
        }
        // every processing list of the queue empties within seconds (the minute sweep is not waited for)
        await().atMost(Duration.ofSeconds(15)).until(() -> copiesInProcessing() == 0);
    }

    private String status(String id) {
        Response status = redis.send(Request.cmd(Command.HGET).arg(keys.task(whole(QUEUE), id)).arg("status"));
        return status == null ? null : status.toString();
    }

    private long copiesInProcessing() {
        long copies = 0;
        Response lists = redis.send(Request.cmd(Command.KEYS).arg(keys.processing(whole(QUEUE), "*")));
        for (Response list : lists) {
            copies += redis.send(Request.cmd(Command.LLEN).arg(list.toString())).toLong();
        }
        return copies;
    }
}
