package io.dedupq.health;

import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.AppJvm.sleep;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Api;
import io.dedupq.support.BlockingHandler;
import io.dedupq.support.Envelopes;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A queue partition whose only handler slot is held by a handler that does not return stops coming
 * round: liveness turns DOWN naming its queue, and UP again once the handler returns. A queue
 * that is busy working off a backlog is alive, however long the backlog lasts.
 */
@QuarkusTest
@TestProfile(LivenessTest.ShortTimeout.class)
@WithTestResource(RedisTestResource.class)
class LivenessTest {

    public static class ShortTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // above block-timeout (1 s) plus a slow reply on a busy machine, far below the 1 min the handler may block
            return Map.of("dedupq.worker.liveness-timeout", "4s");
        }
    }

    @Inject
    BlockingHandler handler;

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    @Test
    void aPartitionWithEverySlotHeldTurnsLivenessDownWithItsQueueAndUpWhenItIsFree() {
        awaitLiveness(200, "UP");
        given().get("/q/health/live").then()
                .body("checks.find { it.name == 'partitions' }.data.queues", containsString(BlockingHandler.TYPE));

        String id = uniqueId("stuck");
        try {
            Api.post(task(id, BlockingHandler.TYPE, Map.of()));
            await().atMost(Duration.ofSeconds(20)).until(() -> handler.running(id));

            awaitLiveness(503, "DOWN");
            given().get("/q/health/live").then()
                    .body("checks.find { it.name == 'partitions' }.data.stalled", equalTo(BlockingHandler.TYPE));
        } finally {
            handler.release(id);
        }

        Api.awaitStatus(id, "succeeded");
        awaitLiveness(200, "UP");
    }

    @Test
    void aBacklogLongerThanTheTimeoutKeepsLivenessUp() {
        awaitLiveness(200, "UP");
        // about 6 s of work for the 8 slots of queue flaky: under a backlog every slot passes from a
        // finished task to the next one in the same claim.lua call
        String prefix = uniqueId("backlog");
        List<String> ids = new ArrayList<>();
        Request push = Request.cmd(Command.LPUSH).arg(keys.pending(whole("flaky")));
        for (int i = 0; i < 2000; i++) {
            ids.add(prefix + "-" + i);
            push.arg(Envelopes.flakySleeping(prefix + "-" + i, 25));
        }
        redis.send(push);

        int polls = 0;
        while (redis.send(Request.cmd(Command.LLEN).arg(keys.pending(whole("flaky")))).toLong() > 0) {
            given().get("/q/health/live").then().statusCode(200);
            polls++;
            sleep(250);
        }
        Api.awaitStatus(ids.get(ids.size() - 1), "succeeded");
        assertTrue(polls > 16, "the backlog lasted longer than the liveness timeout (" + polls + " polls)");
    }

    private static void awaitLiveness(int code, String status) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> given().get("/q/health/live").statusCode() == code);
        given().get("/q/health/live").then().statusCode(code).body("status", equalTo(status));
    }
}
