package io.dedupq.queue;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.PartedHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The "parted" queue is split into 4 partitions (test profile): each task id lives in the
 * partition crc32(id) mod 4, copies of an id meet there, and workers drain every partition.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class PartitionedQueueTest {

    private static final String QUEUE = PartedHandler.TYPE;
    private static final int PARTITIONS = 4;

    @Inject
    QueuePartitions partitions;

    @Inject
    RedisKeys keys;

    @Inject
    TestRedis redis;

    @Inject
    FlakyHandler handler;

    @Test
    void partitionIsCrc32OfTheUtf8IdModuloN() {
        // CRC-32 check value: crc32("123456789") = 0xCBF43926 = 3421780262
        assertEquals((int) (3421780262L % PARTITIONS), QueuePartitions.index("123456789", PARTITIONS));
        assertEquals((int) (3421780262L % 7), QueuePartitions.index("123456789", 7));
        assertEquals(List.of("parted#0", "parted#1", "parted#2", "parted#3"),
                partitions.of(QUEUE).stream().map(Partition::name).toList());
        assertEquals(new Partition(QUEUE, 3, PARTITIONS), partitions.of(QUEUE).get(3));
        assertEquals(List.of(new Partition("payment", 0, 1)), partitions.of("payment"), "one partition keeps today's layout");
        assertEquals("payment", partitions.of("payment").get(0).name());
        assertEquals(new Partition("payment", 0, 1), partitions.forTask("payment", "any-id"));
        assertEquals(new Partition(QUEUE, 2, PARTITIONS), partitions.forTask(QUEUE, "123456789"), "3421780262 mod 4");
    }

    @Test
    void aTaskIsStoredInItsPartitionAndFoundByItsId() {
        String id = uniqueId("where");
        Partition partition = new Partition(QUEUE, QueuePartitions.index(id, PARTITIONS), PARTITIONS);
        assertEquals(202, submit(task(id, QUEUE, flaky(0))).statusCode());

        JsonPath status = awaitStatus(id, "succeeded");
        assertEquals(QUEUE, status.getString("queue"), "the API speaks of the queue, not the partition");
        for (Partition each : partitions.of(QUEUE)) {
            assertEquals(each.equals(partition), redis.exists(keys.task(each, id)), "task hash only in " + partition);
        }
        assertEquals("succeeded", redis.hget(keys.task(partition, id), "status"), "the partition's hash is the task's");
    }

    @Test
    void duplicatesOfAnIdMeetInOnePartitionAndRunOnce() {
        String id = uniqueId("dup");
        List<Map<String, Object>> batch = List.of(task(id, QUEUE, flaky(0)), task(id, QUEUE, flaky(0)));
        JsonPath answer = submitBatch(batch).then().statusCode(200).extract().jsonPath();
        assertEquals(1, answer.getInt("accepted"));
        assertEquals(1, answer.getInt("duplicates"));
        String envelope = Envelopes.flaky(id, QUEUE, 0);
        redis.lpush(keys.pending(partitions.forTask(QUEUE, id)), envelope, envelope, envelope);

        awaitStatus(id, "succeeded");
        await().atMost(Duration.ofSeconds(20)).until(() -> partitions.of(QUEUE).stream()
                .allMatch(p -> redis.llen(keys.pending(p)) == 0));
        assertEquals(1, handler.executions(id).size(), "one execution however many copies arrived");
    }

    @Test
    void workersDrainEveryPartitionAndStatsSumThem() {
        Map<String, Long> enqueuedBefore = enqueuedPerPartition();
        List<Map<String, Object>> batch = new ArrayList<>();
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            String id = uniqueId("drain-" + i);
            used.add(QueuePartitions.index(id, PARTITIONS));
            batch.add(task(id, QUEUE, flaky(i % 5 == 0 ? 1 : 0)));
        }
        assertEquals(PARTITIONS, used.size(), "40 random ids cover all 4 partitions");
        assertEquals(40, submitBatch(batch).then().statusCode(200).extract().jsonPath().getInt("accepted"));

        for (Map<String, Object> task : batch) {
            awaitStatus((String) task.get("id"), "succeeded");
        }
        Map<String, Long> enqueuedAfter = enqueuedPerPartition();
        long total = 0;
        for (String partition : enqueuedAfter.keySet()) {
            long added = enqueuedAfter.get(partition) - enqueuedBefore.get(partition);
            assertTrue(added > 0, partition + " got some of the tasks");
            total += added;
        }
        assertEquals(40, total);
        JsonPath stats = queueStats();
        assertEquals(enqueuedAfter.values().stream().mapToLong(Long::longValue).sum(),
                stats.getLong("find { it.queue == 'parted' }.enqueued"), "the queue's count is the sum of its partitions'");
        assertFalse(stats.getList("queue").contains("parted#0"), "partitions are listed under their queue only");
    }

    @Test
    void copiesOfADeadWorkerInAnyPartitionGoBackAndRunOnce() {
        String id = uniqueId("orphan");
        Partition partition = partitions.forTask(QUEUE, id);
        String ghost = "ghost-" + id;
        redis.zadd(keys.workers(partition), 1, ghost);
        redis.lpush(keys.processing(partition, ghost), Envelopes.flaky(id, QUEUE, 0));

        awaitStatus(id, "succeeded");
        assertEquals(0, redis.llen(keys.processing(partition, ghost)));
        assertEquals(1, handler.executions(id).size());
    }

    @Test
    void deadLettersOfEveryPartitionAreListedAndRetriedInTheirPartition() {
        List<String> ids = new ArrayList<>();
        Set<Partition> used = new HashSet<>();
        while (used.size() < 2) {
            String id = uniqueId("doomed");
            ids.add(id);
            used.add(partitions.forTask(QUEUE, id));
        }
        for (String id : ids) {
            assertEquals(202, submit(task(id, QUEUE, Map.of("failures", 0, "permanent", true))).statusCode());
        }
        for (String id : ids) {
            awaitStatus(id, "failed");
        }
        JsonPath page = given().queryParam("limit", 1000).get("/api/queues/parted/dead").then().statusCode(200)
                .extract().jsonPath();
        assertTrue(page.getList("entries.id").containsAll(ids), "dead letters of " + used + " in one listing");

        String revived = ids.get(0);
        given().post("/api/queues/parted/dead/" + revived + "/retry").then().statusCode(202);
        awaitStatus(revived, "failed");
        assertEquals(2, handler.executions(revived).size(), "ran again after the retry, in its own partition");
    }

    private Map<String, Long> enqueuedPerPartition() {
        JsonPath stats = queueStats();
        Map<String, Long> counts = new TreeMap<>();
        for (Partition partition : partitions.of(QUEUE)) {
            counts.put(partition.name(), stats.getLong("find { it.queue == 'parted' }.partitions.find { it.queue == '"
                    + partition.name() + "' }.enqueued"));
        }
        return counts;
    }

    private static JsonPath queueStats() {
        return given().get("/api/queues").then().statusCode(200).extract().jsonPath();
    }
}
