package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.DoomedHandler;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Dead-letter management over HTTP, on the test-only "doomed" queue (two attempts; only this
 * class and the cancel tests use it): list page by page, retry under the same id with the
 * attempt reset, discard; unknown queues and ids are 404, bad paging is a 400 naming the field,
 * and a refused request changes nothing.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class DeadLetterApiTest {

    private static final String QUEUE = DoomedHandler.TYPE;
    private static final String DEAD = "/api/queues/" + QUEUE + "/dead";

    @Inject
    FlakyHandler handler;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    /** Submits a task that fails for good at once and waits until it is dead-lettered. */
    private String failedForGood() {
        String id = uniqueId("doomed");
        submit(task(id, QUEUE, Map.of("failures", 0, "permanent", true))).then().statusCode(202);
        awaitStatus(id, "failed");
        return id;
    }

    private static JsonPath page(String query) {
        return given().get(DEAD + query).then().statusCode(200).extract().jsonPath();
    }

    @Test
    void listShowsEachDeadLetterNewestFirstPageByPage() {
        long before = page("").getLong("total");
        String first = failedForGood();
        String second = failedForGood();
        String third = failedForGood();

        JsonPath head = page("?offset=0&limit=2");
        assertEquals(before + 3, head.getLong("total"));
        assertEquals(List.of(third, second), head.getList("entries.id"));
        assertEquals(0, head.getInt("offset"));
        assertEquals(2, head.getInt("limit"));
        JsonPath entry = page("?offset=2&limit=1");
        assertEquals(first, entry.getString("entries[0].id"));
        assertEquals(QUEUE, entry.getString("entries[0].type"));
        assertEquals("failed", entry.getString("entries[0].status"));
        assertEquals(1, entry.getInt("entries[0].attempts"));
        assertEquals("refused for good", entry.getString("entries[0].lastError"));
        assertTrue(entry.getLong("entries[0].deadLetteredAt") > 0);
        assertTrue(entry.getString("entries[0].envelope").contains(first));
        assertEquals(0, page("?offset=" + (before + 3)).getList("entries").size(), "past the end: an empty page");
    }

    @Test
    void deadTaskRetriedUnderItsIdRunsAgainAsAFirstAttempt() {
        String id = uniqueId("revive");
        // fails on both of its two attempts, then succeeds on the third execution
        submit(task(id, QUEUE, Map.of("failures", 2))).then().statusCode(202);
        assertEquals(2, awaitStatus(id, "dead").getInt("attempts"));
        assertTrue(page("").getList("entries.id").contains(id));
        long revivedBefore = stat(QUEUE, "revived");

        given().post(DEAD + "/" + id + "/retry").then().statusCode(202)
                .body("id", equalTo(id)).body("status", equalTo("queued"));
        assertEquals(1, stat(QUEUE, "revived") - revivedBefore);

        JsonPath done = awaitStatus(id, "succeeded");
        assertEquals(1, done.getInt("attempts"), "the attempt count starts again");
        assertNull(done.getString("lastError"));
        List<ExecutionContext> runs = handler.executions(id);
        assertEquals(List.of(0, 1, 0), runs.stream().map(ExecutionContext::attempt).toList());
        assertFalse(page("").getList("entries.id").contains(id), "the dead letter is gone");
        check(given().post(DEAD + "/" + id + "/retry"), 404, null);
        assertEquals(1, stat(QUEUE, "revived") - revivedBefore, "a refused retry is not counted");
    }

    @Test
    void deadLetterWhoseTaskHashExpiredIsFoundInTheListAndRetried() {
        String id = failedForGood();
        redis.del(keys.task(whole(QUEUE), id));
        redis.hdel(new DedupRecords(keys, whole(QUEUE), redis::hget).bucket(id), id);

        given().post(DEAD + "/" + id + "/retry").then().statusCode(202);

        // the handler refuses for good again: a second dead letter, and the first run of the revived task
        awaitStatus(id, "failed");
        assertEquals(2, handler.executions(id).size());
        assertEquals(1, page("").getList("entries.id").stream().filter(id::equals).count());
    }

    @Test
    void discardRemovesTheDeadLetterAndTheTaskStaysTerminal() {
        String id = failedForGood();
        long discardedBefore = stat(QUEUE, "discarded");

        given().delete(DEAD + "/" + id).then().statusCode(204);
        assertEquals(1, stat(QUEUE, "discarded") - discardedBefore);

        assertFalse(page("").getList("entries.id").contains(id));
        assertNull(redis.hget(keys.task(whole(QUEUE), id), "deadRecord"));
        assertEquals("failed", given().get("/api/tasks/" + id).jsonPath().getString("status"));
        submit(task(id, QUEUE, Map.of("failures", 0, "permanent", true))).then().statusCode(200)
                .body("duplicate", equalTo(true));
        check(given().delete(DEAD + "/" + id), 404, null);
        check(given().post(DEAD + "/" + id + "/retry"), 404, null);
        assertEquals(1, stat(QUEUE, "discarded") - discardedBefore, "a refused discard is not counted");
    }

    @Test
    void retryOfADeadLetterWhoseIdWasEnqueuedAgainIsAConflict() {
        String id = failedForGood();
        // the dedup window ended (hash and done marker expired) and the id was submitted again as a new task
        redis.del(keys.task(whole(QUEUE), id));
        redis.hdel(new DedupRecords(keys, whole(QUEUE), redis::hget).bucket(id), id);
        submit(task(id, QUEUE, Map.of("failures", 0))).then().statusCode(202);
        awaitStatus(id, "succeeded");
        List<String> deadBefore = redis.lrange(keys.dead(whole(QUEUE)));

        check(given().post(DEAD + "/" + id + "/retry"), 409, null);

        assertEquals(deadBefore, redis.lrange(keys.dead(whole(QUEUE))), "the old dead letter stays");
        assertEquals("succeeded", given().get("/api/tasks/" + id).jsonPath().getString("status"));
    }

    @Test
    void unparseableEntryIsListedWithoutAnId() {
        String garbage = "{garbage " + uniqueId("x");
        redis.lpush(keys.pending(whole(QUEUE)), garbage);

        await().atMost(Duration.ofSeconds(10)).until(() -> garbage.equals(page("?limit=1").getString("entries[0].envelope")));
        JsonPath entry = page("?limit=1");
        assertNull(entry.get("entries[0].id"));
        assertEquals("unparseable", entry.getString("entries[0].status"));
        assertEquals("unparseable envelope", entry.getString("entries[0].lastError"));
    }

    @ParameterizedTest(name = "{0} {1} -> {2} naming {3}")
    @CsvSource({
        "GET,    /api/queues/doomed/dead?offset=-1,           400, offset",
        "GET,    /api/queues/doomed/dead?offset=abc,          400, offset",
        "GET,    /api/queues/doomed/dead?limit=0,             400, limit",
        "GET,    /api/queues/doomed/dead?limit=10001,         400, limit",
        "GET,    /api/queues/doomed/dead?limit=2.5,           400, limit",
        "GET,    /api/queues/no-such-queue/dead,              404, ",
        "POST,   /api/queues/no-such-queue/dead/t-1/retry,    404, ",
        "DELETE, /api/queues/no-such-queue/dead/t-1,          404, ",
        "POST,   /api/queues/doomed/dead/bad*id/retry,        400, id",
        "DELETE, /api/queues/doomed/dead/bad*id,              400, id",
        "POST,   /api/queues/doomed/dead/never-dead-1/retry,  404, ",
        "DELETE, /api/queues/doomed/dead/never-dead-1,        404, ",
    })
    void badRequestsAreProblemsAndChangeNothing(String method, String path, int status, String field) {
        String id = failedForGood();
        List<String> dead = redis.lrange(keys.dead(whole(QUEUE)));
        List<String> pending = redis.lrange(keys.pending(whole(QUEUE)));
        long revived = stat(QUEUE, "revived");
        long discarded = stat(QUEUE, "discarded");

        check(given().request(method, path), status, field);

        assertEquals(revived, stat(QUEUE, "revived"));
        assertEquals(discarded, stat(QUEUE, "discarded"));
        assertEquals(dead, redis.lrange(keys.dead(whole(QUEUE))));
        assertEquals(pending, redis.lrange(keys.pending(whole(QUEUE))));
        assertEquals("failed", given().get("/api/tasks/" + id).jsonPath().getString("status"));
    }

    private static void check(Response response, int status, String field) {
        Problems.check(Problems.Reply.of(response), status, field);
    }
}
