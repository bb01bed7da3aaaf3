package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Contexts;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.SleepyHandler;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.redis.client.RedisOptions;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * ctx.progress: shown by GET /api/tasks/{id} while the handler runs and kept when it ends, and
 * cheap: a handler reporting 100 times in 3 s costs a handful of writes to the task hash,
 * counted from Redis's own keyspace notifications (every HSET on the hash), not from logs.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class ProgressTest {

    private static final int REPORTS = 100;
    private static final int RUN_MILLIS = 3_000;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @Test
    void progressIsShownWhileRunningKeptAfterAndWrittenAtMostOnceASecond() {
        String id = uniqueId("progress");
        String hash = keys.task(whole(SleepyHandler.TYPE), id);
        redis.configSet("notify-keyspace-events", "Kh");
        AtomicInteger hsets = new AtomicInteger();
        RedisConnection subscriber = Redis.createClient(Vertx.vertx(), new RedisOptions().setConnectionString(
                ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class))).connect()
                .await().atMost(Duration.ofSeconds(10));
        try {
            subscriber.handler(push -> {
                if (push.size() == 3 && "message".equals(push.get(0).toString()) && "hset".equals(push.get(2).toString())) {
                    hsets.incrementAndGet();
                }
            });
            subscriber.send(Request.cmd(Command.SUBSCRIBE).arg("__keyspace@0__:" + hash)).await().atMost(Duration.ofSeconds(10));

            submit(Map.of("id", id, "type", SleepyHandler.TYPE, "timeout", 30_000,
                    "payload", Map.of("sleepMillis", RUN_MILLIS, "reports", REPORTS))).then().statusCode(202);

            JsonPath running = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> given().get("/api/tasks/" + id).jsonPath(),
                            task -> "running".equals(task.getString("status")) && task.get("progress") != null
                                    && task.getInt("progress.percent") < 100);
            assertTrue(running.getInt("progress.percent") > 0);
            assertTrue(running.getString("progress.note").startsWith("step "), running.prettify());
            assertTrue(running.getLong("progress.at") > 0);

            JsonPath done = awaitStatus(id, "succeeded");
            assertEquals(100, done.getInt("progress.percent"), "the last value lands, before the outcome");
            assertEquals("step 100 of 100", done.getString("progress.note"));

            // enqueue, claim and outcome write the hash once each; the rest is progress
            await().atMost(Duration.ofSeconds(5)).until(() -> hsets.get() >= 4);
            int writes = hsets.get() - 3;
            assertTrue(writes >= 2 && writes <= RUN_MILLIS / 1000 + 2,
                    REPORTS + " reports in " + RUN_MILLIS + " ms took " + writes + " progress writes");
        } finally {
            subscriber.closeAndForget();
            redis.configSet("notify-keyspace-events", "");
        }
    }

    @Test
    void aPercentOutside0To100IsRefusedAndALongNoteIsCut() {
        List<String> notes = new ArrayList<>();
        ExecutionContext ctx = new ExecutionContext("t", "q", 0, 1, Contexts.quiet(),
                (percent, note) -> notes.add(percent + ":" + note));

        assertThrows(IllegalArgumentException.class, () -> ctx.progress(101, "too far"));
        assertThrows(IllegalArgumentException.class, () -> ctx.progress(-1, null));
        ctx.progress(0, null);
        ctx.progress(100, "x".repeat(ExecutionContext.MAX_NOTE_LENGTH + 50));

        assertEquals(List.of("0:", "100:" + "x".repeat(ExecutionContext.MAX_NOTE_LENGTH)), notes);
    }
}
