package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.Partition;
import io.dedupq.queue.Priority;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.BlockingHandler;
import io.dedupq.support.PartedHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.SlowRetryHandler;
import io.dedupq.support.TestRedis;
import io.dedupq.worker.WorkerIdentity;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * GET /api/queues/{queue}/tasks: a queue's waiting tasks in the order they run, its delayed ones
 * soonest due first (over partitions, as if their lists were joined), its running ones with their
 * worker; paged; bad parameters named, an unknown queue a 404.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class QueueTaskApiTest {

    private static final int PARTED = 4;

    @Inject
    BlockingHandler blocking;

    @Inject
    WorkerIdentity worker;

    @Inject
    TestRedis testRedis;

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    private static JsonPath page(String queue, String query) {
        return given().get("/api/queues/" + queue + "/tasks?" + query).then().statusCode(200).extract().jsonPath();
    }

    @Test
    void waitingTasksArePagedInTheOrderTheyRunAndTheRunningOneNamesItsWorker() {
        String queue = BlockingHandler.TYPE;
        String blocker = uniqueId("blocker");
        // the blocking queue has one slot: while the blocker runs, the tasks after it wait in pending
        List<String> waiting = List.of(uniqueId("first"), uniqueId("second"), uniqueId("third"));
        try {
            submit(task(blocker, queue, Map.of())).then().statusCode(202);
            await().atMost(Duration.ofSeconds(20)).until(() -> blocking.running(blocker));
            for (String id : waiting) {
                submit(task(id, queue, Map.of())).then().statusCode(202);
            }

            JsonPath first = page(queue, "state=waiting&limit=2");
            assertEquals(3, first.getLong("total"));
            assertEquals("waiting", first.getString("state"));
            assertEquals(List.of(waiting.get(0), waiting.get(1)), first.getList("tasks.id"), "what runs next comes first");
            assertEquals(List.of(queue, queue), first.getList("tasks.type"));
            assertEquals(List.of(0, 0), first.getList("tasks.attempt"));
            long enqueuedAt = given().get("/api/tasks/" + waiting.get(0)).jsonPath().getLong("enqueuedAt");
            assertEquals(enqueuedAt, first.getLong("tasks[0].since"), "a waiting task's age counts from its enqueue");
            assertTrue(first.getLong("tasks[0].ageMs") >= 0);
            assertFalse(first.getMap("tasks[0]").containsKey("worker"), "a waiting task runs nowhere");
            assertEquals(5, first.getInt("tasks[0].priority"), "the default level");
            assertFalse(first.getMap("tasks[0]").containsKey("group"));
            assertFalse(first.getMap("tasks[0]").containsKey("progress"), "nor progress, before it runs");
            assertEquals(List.of(waiting.get(2)), page(queue, "state=waiting&offset=2&limit=2").getList("tasks.id"));
            assertEquals(List.of(), page(queue, "state=waiting&offset=3").getList("tasks"));
            assertEquals(first.getList("tasks.id"), page(queue, "limit=2").getList("tasks.id"), "waiting is the default");

            // what a handler reports as its progress is in the task's hash
            testRedis.hset(keys.task(new Partition(queue, 0, 1), blocker), "progress", "40", "progressNote", "half",
                    "progressAt", "1234");
            JsonPath running = page(queue, "state=running");
            assertEquals(Map.of("percent", 40, "note", "half", "at", 1234), running.getMap("tasks[0].progress"));
            assertEquals(1, running.getLong("total"));
            assertEquals(blocker, running.getString("tasks[0].id"));
            assertEquals(worker.id(), running.getString("tasks[0].worker"));
            assertEquals("running", running.getString("tasks[0].state"));
            long startedAt = given().get("/api/tasks/" + blocker).jsonPath().getLong("startedAt");
            assertEquals(startedAt, running.getLong("tasks[0].since"), "a running task's age counts from its start");
            assertEquals(List.of(), page(queue, "state=running&offset=1").getList("tasks"));
        } finally {
            waiting.forEach(id -> given().post("/api/tasks/" + id + "/cancel"));
            blocking.release(blocker);
        }
        awaitStatus(blocker, "succeeded");
        assertEquals(0, page(queue, "state=waiting").getLong("total"), "the cancelled tasks left pending");
        await().atMost(Duration.ofSeconds(10)).until(() -> page(queue, "state=running").getLong("total") == 0);
    }

    @Test
    void waitingTasksOfSeveralLevelsAreListedHighestLevelFirst() {
        String queue = BlockingHandler.TYPE;
        String blocker = uniqueId("blocker");
        String low = uniqueId("low");
        String plain = uniqueId("plain");
        String high = uniqueId("high");
        try {
            submit(task(blocker, queue, Map.of())).then().statusCode(202);
            await().atMost(Duration.ofSeconds(20)).until(() -> blocking.running(blocker));
            // a level-2 task first: the default list is empty then, so enqueue.lua leaves its wake-up entry there
            submit(Map.of("id", low, "type", queue, "payload", Map.of(), "priority", 2)).then().statusCode(202);
            submit(task(plain, queue, Map.of())).then().statusCode(202);
            submit(Map.of("id", high, "type", queue, "payload", Map.of(), "priority", 8)).then().statusCode(202);

            assertTrue(testRedis.lrange(keys.pending(new Partition(queue, 0, 1))).contains(Priority.WAKE));
            JsonPath waiting = page(queue, "state=waiting");
            assertEquals(3, waiting.getLong("total"), "the wake-up entry is no task");
            assertEquals(List.of(high, plain, low), waiting.getList("tasks.id"));
            assertEquals(List.of(8, 5, 2), waiting.getList("tasks.priority"));
            assertEquals(List.of(plain, low), page(queue, "state=waiting&offset=1").getList("tasks.id"));
        } finally {
            List.of(low, plain, high).forEach(id -> given().post("/api/tasks/" + id + "/cancel"));
            blocking.release(blocker);
        }
        awaitStatus(blocker, "succeeded");
    }

    @Test
    void aRetryWaitsInDelayedUntilItIsDue() {
        String queue = SlowRetryHandler.TYPE;
        String id = uniqueId("retrying");
        submit(task(id, queue, flaky(1))).then().statusCode(202);
        JsonPath task = awaitStatus(id, "retrying");
        try {
            JsonPath delayed = page(queue, "state=delayed");
            List<Map<String, Object>> listed = delayed.getList("tasks.findAll { it.id == '" + id + "' }");
            assertEquals(1, listed.size(), "the retry is listed: " + delayed.prettify());
            assertEquals("delayed", listed.get(0).get("state"));
            assertEquals(1, listed.get(0).get("attempt"), "it waits to run as attempt 1");
            assertEquals(task.getLong("nextAttemptAt"), ((Number) listed.get(0).get("dueAt")).longValue());
        } finally {
            given().post("/api/tasks/" + id + "/cancel").then().statusCode(200);
        }
    }

    @Test
    void delayedTasksOfAPartitionedQueueArePagedAsIfTheirListsWereJoined() {
        String queue = PartedHandler.TYPE;
        // one task per partition, due in an hour, as a producer may have pushed them (no task hash)
        List<String> ids = new ArrayList<>();
        List<String> envelopes = new ArrayList<>();
        long due = redis.serverMillis() + 3_600_000;
        for (int p = 0; p < PARTED; p++) {
            String id = idIn(p);
            ids.add(id);
            String envelope = "{\"id\":\"" + id + "\",\"type\":\"" + queue
                    + "\",\"payload\":{\"failures\":0},\"attempt\":2,\"enqueuedAt\":1000,\"priority\":" + p
                    + ",\"group\":\"account-" + p + "\"}";
            envelopes.add(envelope);
            testRedis.zadd(keys.delayed(new Partition(queue, p, PARTED)), due, envelope);
        }
        try {
            JsonPath first = page(queue, "state=delayed&limit=3");
            assertEquals(PARTED, first.getLong("total"));
            assertEquals(ids.subList(0, 3), first.getList("tasks.id"), "partition 0's first, and so on");
            assertEquals(List.of(2, 2, 2), first.getList("tasks.attempt"));
            assertEquals(1000L, first.getLong("tasks[0].since"), "without a hash, the envelope's enqueuedAt");
            assertEquals(List.of(0, 1, 2), first.getList("tasks.priority"), "the envelope's priority");
            assertEquals(List.of("account-0", "account-1", "account-2"), first.getList("tasks.group"));
            assertEquals(ids.subList(3, 4), page(queue, "state=delayed&offset=3&limit=3").getList("tasks.id"));
        } finally {
            for (int p = 0; p < PARTED; p++) {
                redis.send(Request.cmd(Command.ZREM).arg(keys.delayed(new Partition(queue, p, PARTED))).arg(envelopes.get(p)));
            }
        }
    }

    @Test
    void badParametersAreNamedAndAnUnknownQueueIsNotFound() {
        for (String[] bad : new String[][] {{"state=finished", "state"}, {"offset=-1", "offset"}, {"limit=0", "limit"},
                {"limit=10001", "limit"}, {"offset=x", "offset"}}) {
            Problems.check(Problems.Reply.of(given().get("/api/queues/flaky/tasks?" + bad[0])), 400, bad[1]);
        }
        Problems.check(Problems.Reply.of(given().get("/api/queues/no-such-queue/tasks")), 404, null);
    }

    private static String idIn(int partition) {
        while (true) {
            String id = uniqueId("parted");
            if (QueuePartitions.index(id, PARTED) == partition) {
                return id;
            }
        }
    }
}
