package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.RankedHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.SlowRetryHandler;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Task priorities over HTTP, on queues with one slot whose first task holds it while the test
 * enqueues the rest: strict runs the highest level first and FIFO within a level; weighted gives
 * a low level starts while a high level still has tasks. GET /api/queues counts what waits per
 * level, GET /api/tasks/{id} shows a task's level.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class PriorityApiTest {

    @Inject
    RankedHandler.Strict strict;

    @Inject
    RankedHandler.Weighted weighted;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    private static Map<String, Object> task(String id, String type, Integer priority) {
        Map<String, Object> task = new HashMap<>(Map.of("id", id, "type", type, "payload", Map.of()));
        if (priority != null) {
            task.put("priority", priority);
        }
        return task;
    }

    /** Submits a task that holds the queue's one slot and waits until it runs. */
    private static void hold(RankedHandler handler, String type) {
        String holder = uniqueId("holder");
        submit(Map.of("id", holder, "type", type, "payload", Map.of("hold", true))).then().statusCode(202);
        await().atMost(Duration.ofSeconds(20)).until(() -> handler.starts().contains(holder));
    }

    private static JsonPath queue(String name) {
        return new JsonPath(given().get("/api/queues").then().statusCode(200).extract().jsonPath()
                .prettify()).setRootPath("find { it.queue == '" + name + "' }");
    }

    @Test
    void strictRunsTheHighestLevelFirstAndEachLevelInOrder() {
        String type = RankedHandler.Strict.TYPE;
        hold(strict, type);
        String low = uniqueId("low");
        String normal1 = uniqueId("normal1");
        String high1 = uniqueId("high1");
        String three = uniqueId("three");
        String high2 = uniqueId("high2");
        String normal2 = uniqueId("normal2");
        submit(task(low, type, 0)).then().statusCode(202);
        submit(task(normal1, type, null)).then().statusCode(202);
        submit(task(high1, type, 9)).then().statusCode(202);
        submitBatch(List.of(task(three, type, 3), task(high2, type, 9), task(normal2, type, 5))).then().statusCode(200);

        JsonPath waiting = queue(type);
        assertEquals(6, waiting.getLong("pending"));
        assertEquals(Map.of("9", 2, "5", 2, "3", 1, "0", 1), waiting.getMap("waitingByPriority"));
        given().get("/api/tasks/" + high1).then().statusCode(200).body("priority", equalTo(9))
                .body("status", equalTo("queued"));
        given().get("/api/tasks/" + normal1).then().statusCode(200).body("priority", equalTo(5));

        strict.release();
        awaitStatus(low, "succeeded");

        List<String> started = strict.starts();
        assertEquals(List.of(high1, high2, normal1, normal2, three, low), started.subList(started.size() - 6, started.size()));
        assertEquals(0, queue(type).getLong("pending"));
        given().get("/api/tasks/" + low).then().statusCode(200).body("priority", equalTo(0));
    }

    @Test
    void weightedStartsALowLevelWhileAHighLevelStillWaits() {
        String type = RankedHandler.Weighted.TYPE;
        hold(weighted, type);
        List<Map<String, Object>> high = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            high.add(task(uniqueId("high" + i), type, 9));
        }
        String low = uniqueId("low");
        submitBatch(high).then().statusCode(200);
        submit(task(low, type, 0)).then().statusCode(202);

        weighted.release();
        awaitStatus(low, "succeeded");
        await().atMost(Duration.ofSeconds(20)).until(() -> weighted.starts().size() == 32);

        List<String> started = weighted.starts();
        // level 9 weighs 10 and level 0 weighs 1: the low task gets a turn in each round of 11 claims
        int at = started.indexOf(low);
        assertTrue(at < started.size() - 1, "the low task started before the high level ran out: " + started);
        assertTrue(at <= 1 + 2 * 11, "within two rounds of turns: " + started);
        List<String> highOrder = started.stream().filter(id -> id.startsWith("high")).toList();
        assertEquals(high.stream().map(t -> (String) t.get("id")).toList(), highOrder, "FIFO within the level");
    }

    @Test
    void aRetryKeepsItsLevel() {
        String id = uniqueId("retry");
        Map<String, Object> task = new HashMap<>(Map.of("id", id, "type", SlowRetryHandler.TYPE, "payload", flaky(1)));
        task.put("priority", 7);
        submit(task).then().statusCode(202);

        awaitStatus(id, "retrying");

        // the slow-retry queue waits 5 s before the retry: the next attempt's envelope is in delayed
        List<String> next = redis.zrange(keys.delayed(whole(SlowRetryHandler.TYPE))).stream()
                .filter(copy -> copy.contains(id)).toList();
        assertEquals(1, next.size());
        assertTrue(next.get(0).contains("\"priority\":7") && next.get(0).contains("\"attempt\":1"), next.get(0));
        given().get("/api/tasks/" + id).then().body("priority", equalTo(7));
        awaitStatus(id, "succeeded");
    }
}
