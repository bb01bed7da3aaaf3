package io.dedupq.api;

import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.task;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisFullException;
import io.dedupq.support.Api;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisServerProfile;
import io.dedupq.support.Scrape;
import io.dedupq.support.TestRedis;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A full Redis: {@code redis-server --maxmemory 8mb --maxmemory-policy noeviction} filled with
 * tasks (workers running) until it refuses them. Refused enqueues answer 507 problem+json with
 * Retry-After and write nothing; health, metrics and GET /api/queues show it; once memory is
 * freed (CONFIG SET maxmemory larger) the workers resume by themselves and every accepted task
 * runs exactly once, with no lock left behind.
 */
@QuarkusTest
@TestProfile(FullRedisTest.EightMegabytes.class)
class FullRedisTest {

    private static final String TASKS = "{dedupq:flaky}:";

    public static class EightMegabytes extends RedisServerProfile {
        public EightMegabytes() {
            super(Map.of("args", "--maxmemory 8mb --maxmemory-policy noeviction"),
                    Map.of("dedupq.redis.check-interval", "1s"));
        }
    }

    @Inject
    TestRedis redis;

    @Inject
    RedisCalls calls;

    @Inject
    FlakyHandler handler;

    @Test
    void refusedTasksAnswer507AndWriteNothingAcceptedOnesRunOnceWhenMemoryFrees() {
        List<String> accepted = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        int batches = 0;
        while (refused.size() < 2_000 && batches++ < 400) {
            List<Map<String, Object>> batch = new ArrayList<>();
            for (int k = 0; k < 500; k++) {
                batch.add(task("full-" + batches + "-" + k, "flaky", flaky(0)));
            }
            Response answer = Api.submitBatch(batch);
            // 503: Redis did not answer in time (a loaded host); as the answer says, the same ids
            // are sent again, and those that got through the first time answer as duplicates
            int again = 0;
            for (; answer.statusCode() == 503 && again < 5; again++) {
                answer = Api.submitBatch(batch);
            }
            List<String> ids = batch.stream().map(t -> (String) t.get("id")).toList();
            if (answer.statusCode() == 507) {
                assertFull(answer);
                refused.addAll(ids);
            } else {
                assertEquals(200, answer.statusCode(), answer.asString());
                JsonPath reply = answer.jsonPath();
                assertEquals(500, reply.getInt("accepted") + reply.getInt("duplicates"), answer.asString());
                assertTrue(again > 0 || reply.getInt("duplicates") == 0, answer.asString());
                accepted.addAll(ids);
            }
        }
        assertFalse(refused.isEmpty(), "Redis never filled up");
        assertTrue(accepted.size() > 5_000, "accepted " + accepted.size());

        // memory moves a little while workers finish tasks: single tasks until one is refused too
        String single = null;
        for (int i = 0; single == null && i < 2_000; i++) {
            Map<String, Object> task = task("full-single-" + i, "flaky", flaky(0));
            Response answer = Api.submit(task);
            int again = 0;
            for (; answer.statusCode() == 503 && again < 5; again++) {
                answer = Api.submit(task);
            }
            if (answer.statusCode() == 507) {
                assertFull(answer);
                single = "full-single-" + i;
            } else {
                // 200 (duplicate) only for a task sent again after a 503: its first send got through
                assertTrue(answer.statusCode() == 202 || again > 0 && answer.statusCode() == 200, answer.asString());
                accepted.add("full-single-" + i);
            }
        }
        assertTrue(single != null, "no single task was refused");
        refused.add(single);

        // nothing half-written: no hash of a refused task, and the counter counts only the accepted
        for (String id : refused.subList(0, 200)) {
            assertFalse(redis.exists(TASKS + "task:" + id), id);
        }
        assertFalse(redis.exists(TASKS + "task:" + single));
        assertEquals(accepted.size(), Long.parseLong(redis.hget(TASKS + "stats", "enqueued")));

        JsonPath health = given().get("/q/health/ready").then().statusCode(200).extract().jsonPath();
        assertTrue(health.getLong("checks.find { it.name == 'redis-memory' }.data.refusedWrites") > 0, health.prettify());
        assertEquals(8L * 1024 * 1024, health.getLong("checks.find { it.name == 'redis-memory' }.data.maxMemory"));
        assertTrue(Scrape.now().value("dedupq_redis_writes_refused_total") > 0);
        assertEquals(8.0 * 1024 * 1024, Scrape.now().value("dedupq_redis_memory_max_bytes"));
        Response queues = given().get("/api/queues");
        assertEquals("8388608", queues.header("Redis-Max-Memory"));
        assertEquals("noeviction", queues.header("Redis-Maxmemory-Policy"));
        assertTrue(Long.parseLong(queues.header("Redis-Used-Memory")) > 4L * 1024 * 1024, queues.headers().toString());

        // what Redis does to a script at OOM, which the above relies on: refused at its first write
        // when that write may grow memory, never once it has written. Workers free memory as they
        // finish, so the probe runs under a limit far below what is used, where OOM is certain.
        redis.configSet("maxmemory", "1mb");
        assertThrows(RedisFullException.class, () -> calls.send(Request.cmd(Command.EVAL)
                .arg("redis.call('GET', KEYS[1]); return redis.call('LPUSH', KEYS[1], 'x')").arg(1).arg("probe:a")));
        assertFalse(redis.exists("probe:a"));
        assertEquals(1, calls.send(Request.cmd(Command.EVAL)
                .arg("redis.call('DEL', KEYS[2]); return redis.call('LPUSH', KEYS[1], 'x')").arg(2).arg("probe:b")
                .arg("probe:c")).toLong());

        redis.configSet("maxmemory", "512mb");

        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                .until(() -> Api.stat("flaky", "succeeded") >= accepted.size());
        assertEquals(accepted.size(), Api.stat("flaky", "succeeded"));
        for (String id : accepted) {
            assertEquals(1, handler.executions(id).size(), id);
        }
        for (String id : refused) {
            assertEquals(0, handler.executions(id).size(), id);
        }
        assertEquals(List.of(), redis.keys(TASKS + "lock:*"));

        // recovery: the refused single task goes in now and runs
        assertEquals(202, Api.post(task(single, "flaky", flaky(0))));
        Api.awaitStatus(single, "succeeded");
    }

    private static void assertFull(Response answer) {
        assertEquals("application/problem+json", answer.contentType().replaceAll(";.*", ""));
        assertEquals("2", answer.header("Retry-After"));
        assertEquals("urn:dedupq:problem:store-full", answer.jsonPath().getString("type"));
        assertTrue(answer.jsonPath().getString("detail").contains("out of memory"), answer.asString());
    }
}
