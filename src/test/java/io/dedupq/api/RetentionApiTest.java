package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.ShortRetentionHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.Skips;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The result retention (1 s on the queue "short-retention" in the test configuration) ends before
 * the dedup window (6 s): then the task hash is gone
 * and only the outcome is left. GET answers the outcome alone, a resubmission answers 200
 * duplicate with it and enqueues nothing, a copy on the list is dropped as done. Once the window
 * is over too, GET answers 404 and the id is accepted again.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class RetentionApiTest {

    private static final String QUEUE = ShortRetentionHandler.TYPE;

    @Inject
    FlakyHandler handler;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    private static JsonPath read(String id) {
        return given().get("/api/tasks/" + id).then().statusCode(200).extract().jsonPath();
    }

    private void awaitHashGone(String id) {
        await().atMost(Duration.ofSeconds(10)).until(() -> !redis.exists(keys.task(whole(QUEUE), id)));
    }

    @Test
    void afterTheRetentionOnlyTheOutcomeIsLeftAndAfterTheWindowTheIdIsFree() {
        String id = uniqueId("kept");
        submit(task(id, QUEUE, flaky(0))).then().statusCode(202);
        awaitStatus(id, "succeeded");
        assertEquals(1, read(id).getInt("attempts"), "within the retention the whole task is there");
        assertTrue(redis.pttl(keys.task(whole(QUEUE), id)) <= 1_000, "the hash expires after the retention");

        awaitHashGone(id);

        assertTrue(redis.pttl(new DedupRecords(keys, whole(QUEUE), redis::hget).bucket(id)) > 1_000, "the done marker stays for the window");
        assertEquals(Map.of("id", id, "queue", QUEUE, "status", "succeeded"), read(id).getMap(""), "the outcome only");
        submit(task(id, QUEUE, flaky(0))).then().statusCode(200).body("status", equalTo("succeeded"))
                .body("duplicate", equalTo(true));
        submitBatch(List.of(task(id, QUEUE, flaky(1)))).then().statusCode(200)
                .body("results[0].code", equalTo(200)).body("results[0].status", equalTo("succeeded"));
        assertFalse(redis.exists(keys.task(whole(QUEUE), id)), "a duplicate brings no hash back");
        assertTrue(redis.lrange(keys.pending(whole(QUEUE))).stream().noneMatch(copy -> copy.contains(id)), "nothing enqueued");
        Skips before = Skips.of(QUEUE);
        redis.lpush(keys.pending(whole(QUEUE)), Envelopes.flaky(id, QUEUE, 0));
        before.awaitDropped(1, 0, 0);
        assertEquals(1, handler.executions(id).size(), "neither the resubmissions nor the copy ran");

        await().atMost(Duration.ofSeconds(15))
                .until(() -> new DedupRecords(keys, whole(QUEUE), redis::hget).expiresAt(id) <= redis.serverMillis());

        given().get("/api/tasks/" + id).then().statusCode(404);
        submit(task(id, QUEUE, flaky(0))).then().statusCode(202);
        awaitStatus(id, "succeeded");
        assertEquals(2, handler.executions(id).size(), "after the window the id runs again");
    }

    @Test
    void aDeadTaskAnswersDeadAndCannotBeCancelledOnceOnlyItsOutcomeIsLeft() {
        String id = uniqueId("dead");
        // flaky gives up after 3 attempts in the test profile
        submit(task(id, QUEUE, flaky(5))).then().statusCode(202);
        awaitStatus(id, "dead");

        awaitHashGone(id);

        assertEquals(Map.of("id", id, "queue", QUEUE, "status", "dead"), read(id).getMap(""));
        submit(task(id, QUEUE, flaky(5))).then().statusCode(200).body("status", equalTo("dead"));
        given().post("/api/tasks/" + id + "/cancel").then().statusCode(409);
        assertEquals(3, handler.executions(id).size());
    }
}
