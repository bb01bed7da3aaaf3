package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.sleeping;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.GovernedHandler;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * GET /api/queues shows each queue's limits as this pod is configured (controls) and their use
 * now, read from Redis: the starts in the rate window that ends now, and the groups with copies
 * waiting for a free slot. The test-only "governed" queue runs under every limit (two slots,
 * rate limit 20/1m, one task per group, a 5 minute timeout).
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class QueueControlsApiTest {

    private static final String QUEUE = GovernedHandler.TYPE;

    @Inject
    FlakyHandler handler;

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    private static JsonPath queue(String name) {
        return given().get("/api/queues").then().statusCode(200).extract().jsonPath()
                .setRootPath("find { it.queue == '" + name + "' }");
    }

    @Test
    void eachQueueShowsTheLimitsItIsConfiguredWith() {
        JsonPath governed = queue(QUEUE);
        assertEquals(2, governed.getInt("controls.concurrency"));
        assertEquals(1, governed.getInt("controls.partitions"));
        assertEquals("20/1m", governed.getString("controls.rateLimit"));
        assertEquals(1, governed.getInt("controls.groupConcurrency"));
        assertEquals("30/1m", governed.getString("controls.groupRateLimit"));
        assertEquals("strict", governed.getString("controls.priorityOrder"));
        assertEquals(300_000, governed.getLong("controls.timeoutMs"));

        JsonPath plain = queue("flaky");
        assertNull(plain.get("controls.rateLimit"), "no rate limit");
        assertEquals(0, plain.getInt("controls.groupConcurrency"), "no group concurrency");
        assertNull(plain.get("controls.groupRateLimit"), "no group rate limit");
        assertNull(plain.get("controls.timeoutMs"), "no timeout");
        assertEquals(0, plain.getLong("rateWindowStarts"));
        assertEquals("weighted", queue("ranked-weighted").getString("controls.priorityOrder"));
        JsonPath parted = queue("parted");
        assertEquals(4, parted.getInt("controls.partitions"));
        assertEquals(4, parted.getInt("partitions[0].controls.partitions"), "each partition names its queue's limits");
    }

    @Test
    void theRateWindowAndTheWaitingGroupsAreCountedNow() {
        String group = uniqueId("acct");
        String first = uniqueId("governed-first");
        String second = uniqueId("governed-second");
        // the log holds one start only, which left the window a second ago and is not trimmed yet
        // (claim.lua trims at its next call)
        String log = keys.rate(whole(QUEUE));
        redis.send(Request.cmd(Command.DEL).arg(log));
        redis.send(Request.cmd(Command.ZADD).arg(log).arg(redis.serverMillis() - 61_000).arg(uniqueId("old-start")));
        assertEquals(0, queue(QUEUE).getLong("rateWindowStarts"), "the start before the window is not counted");

        submit(sleeping(first, QUEUE, 60_000, group, null)).then().statusCode(202);
        await().atMost(Duration.ofSeconds(10)).until(() -> handler.executions(first).size() == 1);
        submit(sleeping(second, QUEUE, 0, group, null)).then().statusCode(202);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue(QUEUE).getLong("groupWaiting") == 1);

        JsonPath held = queue(QUEUE);
        assertEquals(1, held.getLong("waitingGroups"), "one group has a copy waiting");
        assertEquals(1, held.getLong("rateWindowStarts"), "the first task started; the second waits");
        assertEquals(1, held.getLong("processing"));

        given().post("/api/tasks/" + first + "/cancel").then().statusCode(200);
        awaitStatus(second, "succeeded");
        JsonPath after = queue(QUEUE);
        assertEquals(0, after.getLong("waitingGroups"));
        assertEquals(0, after.getLong("groupWaiting"));
        assertEquals(2, after.getLong("rateWindowStarts"), "both started within the minute");
    }
}
