package io.dedupq.cluster;

import static io.dedupq.support.Api.account;
import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.openAccount;
import static io.dedupq.support.Api.openCampaign;
import static io.dedupq.support.Api.payment;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.submitUntilAnswered;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Api.voucher;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.dedupq.config.RedisProcess;
import io.dedupq.queue.EnqueueCoalescer;
import io.dedupq.queue.EnqueueScript;
import io.dedupq.queue.HashSlot;
import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.StoreUnavailableException;
import io.dedupq.queue.TaskQueue;
import io.dedupq.queue.TaskSubmission;
import io.dedupq.support.Concurrently;
import io.dedupq.support.Envelopes;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.PartedHandler;
import io.dedupq.support.Partitions;
import io.dedupq.support.RedisCluster;
import io.dedupq.support.RedisClusterTestResource;
import io.dedupq.support.TestRedis;
import io.dedupq.worker.CancelListener;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The whole task path on a real 3-master Redis Cluster: every script touches one slot, pipelines
 * that span queues (batch enqueue, heartbeats, queue stats) are split per slot, and a master
 * that restarts with an empty script cache is served again by EVAL.
 */
@QuarkusTest
@TestProfile(ClusterProfile.class)
class ClusterTest {

    @Inject
    RedisKeys keys;

    @Inject
    TestRedis redis;

    @Inject
    FlakyHandler handler;

    @Inject
    QueuePartitions partitions;

    @Inject
    EnqueueCoalescer coalescer;

    @Inject
    TaskQueue queue;

    @Inject
    Vertx vertx;

    @Inject
    CancelListener cancelListener;

    @Test
    void partitionsOfAQueueLandOnEveryMaster() {
        RedisCluster cluster = RedisClusterTestResource.cluster();
        Set<String> masters = partitions.of(PartedHandler.TYPE).stream().map(p -> cluster.masterOf(keys.pending(p)))
                .collect(Collectors.toSet());
        assertEquals(3, masters.size(), "parted#0..3 are served by all three masters: " + masters);
    }

    @Test
    void hashSlotsAgreeWithTheCluster() {
        RedisCluster cluster = RedisClusterTestResource.cluster();
        for (String key : List.of(keys.pending(partitions.of(PartedHandler.TYPE).get(3)), keys.task(whole("payment"), "x"),
                keys.account("acc-1"), keys.workers(), "plain-key", "{}empty-tag", "{a}{b}", "é{ü}")) {
            String answer = cluster.cli(cluster.nodes().get(0), "cluster", "keyslot", key).trim();
            assertEquals(Integer.parseInt(answer), HashSlot.of(key), key);
        }
    }

    @Test
    void aPartitionedQueueIsDrainedOnEveryMasterAndDuplicatesRunOnce() {
        List<Map<String, Object>> batch = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            batch.add(task(uniqueId("spread-" + i), PartedHandler.TYPE, flaky(i % 6 == 0 ? 1 : 0)));
        }
        List<Map<String, Object>> withDuplicates = new ArrayList<>(batch);
        withDuplicates.addAll(batch.subList(0, 6));
        JsonPath answer = submitBatch(withDuplicates).then().statusCode(200).extract().jsonPath();
        assertEquals(24, answer.getInt("accepted"));
        assertEquals(6, answer.getInt("duplicates"));
        String straight = (String) batch.get(1).get("id");
        redis.lpush(keys.pending(partitions.forTask(PartedHandler.TYPE, straight)),
                Envelopes.flaky(straight, PartedHandler.TYPE, 0));

        for (Map<String, Object> task : batch) {
            awaitStatus((String) task.get("id"), "succeeded");
        }
        for (int i = 0; i < batch.size(); i++) {
            String id = (String) batch.get(i).get("id");
            assertEquals(i % 6 == 0 ? 2 : 1, handler.executions(id).size(), "one failure and its retry, or one run: " + id);
        }
        assertEquals(partitions.of(PartedHandler.TYPE).size(),
                given().get("/api/queues").jsonPath().getList("find { it.queue == 'parted' }.partitions").size());
    }

    @Test
    void deadLettersAreRetriedAndCancelIsJudgedInTheTasksPartition() {
        String doomed = uniqueId("doomed");
        submit(task(doomed, PartedHandler.TYPE, Map.of("failures", 0, "permanent", true))).then().statusCode(202);
        awaitStatus(doomed, "failed");
        given().post("/api/queues/parted/dead/" + doomed + "/retry").then().statusCode(202);
        awaitStatus(doomed, "failed");
        assertEquals(2, handler.executions(doomed).size(), "run again after revive.lua");

        // cancel.lua runs in the task's partition and refuses a finished task (a cross-slot script would fail instead)
        String finished = uniqueId("finished");
        submit(task(finished, PartedHandler.TYPE, flaky(0))).then().statusCode(202);
        awaitStatus(finished, "succeeded");
        given().post("/api/tasks/" + finished + "/cancel").then().statusCode(409);
        assertEquals("succeeded", awaitStatus(finished, "succeeded").getString("status"));
    }

    @Test
    void paymentsVouchersAndFlakyTasksRunOnceThroughOneBatch() {
        String accountId = openAccount("EUR", "100.00");
        String campaignId = openCampaign(5);
        String pay = uniqueId("pay");
        String voucher = uniqueId("vou");
        String flaky = uniqueId("flk");
        List<Map<String, Object>> tasks = List.of(task(pay, "payment", payment(accountId, "10.00")),
                task(voucher, "voucher", voucher(campaignId, "cust-1")), task(flaky, "flaky", flaky(1)));

        assertEquals(3, submitBatch(tasks).then().statusCode(200).extract().jsonPath().getInt("accepted"));
        assertEquals(3, submitBatch(tasks).jsonPath().getInt("duplicates"), "the same batch again: all duplicates");

        awaitStatus(pay, "succeeded");
        awaitStatus(voucher, "succeeded");
        awaitStatus(flaky, "succeeded");
        assertEquals(0, new BigDecimal("90.00").compareTo(account(accountId).get("balance")));
        assertEquals(2, handler.executions(flaky).size(), "one failure, one retry");
        assertNotEquals(0, stat("payment", "enqueued"), "queue stats read every slot");
    }

    @Test
    void concurrentDuplicatesOfOnePaymentAreAcceptedAndChargedOnce() {
        String accountId = openAccount("EUR", "50.00");
        String id = uniqueId("pay");
        Map<String, Object> task = task(id, "payment", payment(accountId, "5.00"));

        List<String> answers = Concurrently.run(8, 100, i -> submitUntilAnswered(task));

        Map<String, Long> counts = answers.stream().collect(Collectors.groupingBy(a -> a, Collectors.counting()));
        assertTrue(Set.of("202", "200 duplicate").containsAll(counts.keySet()), "answers: " + counts);
        assertTrue(counts.getOrDefault("202", 0L) <= 1, "accepted at most once: " + counts);
        awaitStatus(id, "succeeded");
        assertEquals(1, account(accountId).getList("ledger").size());
    }

    @Test
    void copiesOfADeadWorkerAreRequeuedAndRunOnce() {
        String id = uniqueId("orphan");
        String ghost = "ghost-" + id;
        String envelope = Envelopes.flaky(id, 0);
        redis.zadd(keys.workers(whole("flaky")), 1, ghost);
        redis.lpush(keys.processing(whole("flaky"), ghost), envelope, envelope);
        redis.lpush(keys.pending(whole("flaky")), envelope);

        awaitStatus(id, "succeeded");
        await().atMost(Duration.ofSeconds(20)).until(() -> redis.llen(keys.processing(whole("flaky"), ghost)) == 0);
        assertEquals(1, handler.executions(id).size());
    }

    @Test
    void aRestartedMasterServesScriptsAgain() {
        RedisCluster cluster = RedisClusterTestResource.cluster();
        RedisProcess node = cluster.nodeOf(keys.pending(whole("flaky")));
        String before = uniqueId("before");
        assertEquals(202, submit(task(before, "flaky", flaky(0))).statusCode());
        awaitStatus(before, "succeeded");

        node.stop();
        node.start();
        cluster.awaitReady();

        String after = uniqueId("after");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> Set.of(200, 202).contains(submit(task(after, "flaky", flaky(0))).statusCode()));
        awaitStatus(after, "succeeded");
        assertEquals(1, handler.executions(after).size());
        assertEquals(1, handler.executions(before).size());
    }

    /**
     * A master that is down stops the partitions in its slots and no others: each command goes
     * to the master of its own slot, and enqueues of one event-loop turn that share a pipeline
     * fail only for the partition whose master did not answer. (The cluster runs with
     * {@code cluster-require-full-coverage no}; with Redis's default it refuses every command
     * once it flags the master as failed, whatever the client does.)
     */
    @Test
    void aStoppedMasterStopsOnlyThePartitionsOfItsSlots() throws Exception {
        RedisCluster cluster = RedisClusterTestResource.cluster();
        List<Partition> parted = partitions.of(PartedHandler.TYPE);
        Partition down = parted.get(0);
        RedisProcess gone = cluster.nodeOf(keys.pending(down));
        Partition up = parted.stream().filter(p -> cluster.nodeOf(keys.pending(p)) != gone).findFirst().orElseThrow();
        try {
            gone.stop();
            // the cancel listener, its subscriptions cut, subscribes again on a node that is up
            cluster.nodes().stream().filter(node -> node != gone)
                    .forEach(node -> cluster.cli(node, "client", "kill", "type", "pubsub"));
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() -> !cancelListener.subscribed());
            await().atMost(Duration.ofSeconds(15)).until(cancelListener::subscribed);
            // refused at once, so they do not open the API's circuit breaker for the other masters
            for (int i = 0; i < 4; i++) {
                assertEquals(503, submit(task(idOn(down), PartedHandler.TYPE, flaky(0))).statusCode());
            }
            String served = idOn(up);
            assertEquals(202, submit(task(served, PartedHandler.TYPE, flaky(0))).statusCode());
            // read from the handler: GET /api/tasks/{id} looks for the id in every queue, some on the stopped master
            await().atMost(Duration.ofSeconds(20)).until(() -> handler.executions(served).size() == 1);

            String sharing = idOn(up);
            List<CompletableFuture<List<List<EnqueueScript.Answer>>>> answers = new ArrayList<>();
            CompletableFuture<Void> sent = new CompletableFuture<>();
            vertx.getOrCreateContext().runOnContext(v -> {
                answers.add(coalescer.answers(prepared(sharing)).subscribeAsCompletionStage());
                answers.add(coalescer.answers(prepared(idOn(down))).subscribeAsCompletionStage());
                sent.complete(null);
            });
            sent.get(10, TimeUnit.SECONDS);
            assertEquals(EnqueueScript.Verdict.QUEUED, answers.get(0).get(10, TimeUnit.SECONDS).get(0).get(0).verdict(),
                    "the caller whose partition answered is answered");
            ExecutionException failed = assertThrows(ExecutionException.class, () -> answers.get(1).get(10, TimeUnit.SECONDS));
            assertInstanceOf(StoreUnavailableException.class, failed.getCause());
            await().atMost(Duration.ofSeconds(20)).until(() -> handler.executions(sharing).size() == 1);
            assertEquals(1, handler.executions(served).size());
        } finally {
            gone.start();
            cluster.awaitReady();
            // the gauges' reads across every queue counted toward the API's circuit breaker: the next test starts once it is closed
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> given().get("/api/queues").statusCode() == 200);
        }
    }

    private String idOn(Partition partition) {
        return Partitions.idOn(partitions, PartedHandler.TYPE, partition, "cluster");
    }

    private Map<Partition, List<EnqueueScript.Task>> prepared(String id) {
        TaskQueue.Prepared task = queue.prepareAll(List.of(new TaskSubmission(id, PartedHandler.TYPE,
                JsonNodeFactory.instance.objectNode().put("failures", 0)))).get(0);
        return Map.of(partitions.forTask(task.queue(), task.id()), List.of(task.task()));
    }

    @Test
    void readinessAsksEveryMasterAndIsDownNamingTheOneThatIsGone() {
        RedisCluster cluster = RedisClusterTestResource.cluster();
        List<String> masters = cluster.nodes().stream().map(node -> "127.0.0.1:" + node.port()).toList();
        await().atMost(Duration.ofSeconds(30)).until(() -> readiness().statusCode() == 200);
        Map<String, Object> ready = redisCheckData();
        assertEquals(3, ready.get("masters"), "data: " + ready);
        masters.forEach(master -> assertEquals("UP", ready.get(master), "data: " + ready));

        RedisProcess gone = cluster.nodes().get(2);
        try {
            gone.stop();
            // the survivors answer for themselves: only the stopped master is DOWN
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).until(() -> {
                Map<String, Object> data = readiness().statusCode() == 503 ? redisCheckData() : Map.of();
                return String.valueOf(data.get(masters.get(2))).startsWith("DOWN")
                        && "UP".equals(data.get(masters.get(0))) && "UP".equals(data.get(masters.get(1)));
            });
        } finally {
            gone.start();
            cluster.awaitReady();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> readiness().statusCode() == 200);
        masters.forEach(master -> assertEquals("UP", redisCheckData().get(master)));
    }

    private static Response readiness() {
        return given().get("/q/health/ready");
    }

    private static Map<String, Object> redisCheckData() {
        return readiness().jsonPath().getMap("checks.find { it.name == 'redis' }.data");
    }
}
