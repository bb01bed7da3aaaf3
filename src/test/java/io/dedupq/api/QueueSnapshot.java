package io.dedupq.api;

import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.dedupq.queue.Priority;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the example queues hold and what every queue has counted as enqueued. A refused request
 * must leave it exactly as it was: no envelope on a pending list, nothing in flight, no enqueue
 * counted.
 *
 * @param pending  LLEN of each example queue's pending lists (every priority level), read straight from Redis
 * @param inFlight processing + delayed of each example queue, as GET /api/queues reports them
 * @param enqueued the {@code enqueued} counter of every queue, as GET /api/queues reports it
 */
record QueueSnapshot(Map<String, Long> pending, Map<String, Long> inFlight, Map<String, Long> enqueued) {

    static final List<String> QUEUES = List.of("payment", "voucher");

    /**
     * Waits until workers have finished what earlier tests enqueued, so that a later snapshot
     * differs only if something was enqueued in between. Generous: the machine is shared.
     */
    static QueueSnapshot settled(RedisCalls redis, RedisKeys keys) {
        return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .ignoreExceptions() // a 503 while an earlier test's Redis outage clears is worth waiting out
                .until(() -> take(redis, keys), QueueSnapshot::idle);
    }

    static QueueSnapshot take(RedisCalls redis, RedisKeys keys) {
        Map<String, Long> pending = new TreeMap<>();
        for (String queue : QUEUES) {
            long waiting = 0;
            for (int level = Priority.LOWEST; level <= Priority.HIGHEST; level++) {
                waiting += redis.send(Request.cmd(Command.LLEN).arg(keys.pending(whole(queue), level))).toLong();
            }
            pending.put(queue, waiting);
        }
        Map<String, Long> inFlight = new TreeMap<>();
        Map<String, Long> enqueued = new TreeMap<>();
        List<Map<String, Object>> stats = given().get("/api/queues").then().statusCode(200).extract().jsonPath()
                .getList("");
        for (Map<String, Object> queue : stats) {
            String name = (String) queue.get("queue");
            enqueued.put(name, number(queue, "enqueued"));
            if (QUEUES.contains(name)) {
                inFlight.put(name, number(queue, "processing") + number(queue, "delayed"));
            }
        }
        return new QueueSnapshot(pending, inFlight, enqueued);
    }

    boolean idle() {
        return pending.values().stream().allMatch(n -> n == 0) && inFlight.values().stream().allMatch(n -> n == 0);
    }

    private static long number(Map<String, Object> queue, String field) {
        return ((Number) queue.get(field)).longValue();
    }
}
