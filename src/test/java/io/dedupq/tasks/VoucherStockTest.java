package io.dedupq.tasks;

import static io.dedupq.support.Api.campaign;
import static io.dedupq.support.Api.openCampaign;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Api.voucher;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Envelopes;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A campaign never hands out more vouchers than its stock, and never two to the same task. */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class VoucherStockTest {

    private static final String QUEUE = "voucher";
    private static final int STOCK = 5;
    private static final int TASKS = 12;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @Test
    void moreVoucherTasksThanStockIssueExactlyStockDistinctCodesAndFailTheRest() {
        String campaignId = openCampaign(STOCK);
        List<String> ids = voucherTaskIds(TASKS);
        List<Map<String, Object>> tasks = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            tasks.add(task(ids.get(i), "voucher", voucher(campaignId, "cust-" + i)));
        }
        submitBatch(tasks).then().statusCode(200).body("accepted", equalTo(TASKS));
        // a second copy of every task, pushed straight onto the list, races with the first in the workers
        for (int i = 0; i < TASKS; i++) {
            redis.lpush(keys.pending(whole(QUEUE)), Envelopes.voucher(ids.get(i), campaignId, "cust-" + i));
        }

        Map<String, JsonPath> finished = awaitFinished(ids);

        List<String> succeeded = ids.stream().filter(id -> "succeeded".equals(finished.get(id).getString("status"))).toList();
        assertEquals(STOCK, succeeded.size(), "as many tasks succeed as there is stock");
        for (String id : ids) {
            if (!succeeded.contains(id)) {
                JsonPath failed = finished.get(id);
                assertEquals("failed", failed.getString("status"), id);
                assertTrue(failed.getString("lastError").contains("out of stock"), failed.prettify());
            }
        }
        JsonPath campaign = campaign(campaignId);
        assertEquals(0, campaign.getLong("stock"));
        List<String> codes = campaign.getList("vouchers.code");
        List<String> owners = campaign.getList("vouchers.taskId");
        assertEquals(STOCK, codes.size(), "exactly stock codes issued: " + campaign.prettify());
        assertEquals(STOCK, new HashSet<>(codes).size(), "all codes distinct: " + codes);
        assertEquals(Set.copyOf(succeeded), Set.copyOf(owners), "one voucher per succeeded task, none for others");
        assertEquals(STOCK, new HashSet<>(owners).size(), "no task holds two vouchers: " + owners);
        for (String id : succeeded) {
            String code = campaign.getString("vouchers.find { it.taskId == '" + id + "' }.code");
            assertEquals(code, finished.get(id).getString("result.code"), "the task's result names its voucher");
        }
    }

    @Test
    void voucherTasksSentAgainAfterCompletionNeverIssueASecondCode() {
        String campaignId = openCampaign(10);
        List<String> ids = voucherTaskIds(3);
        for (String id : ids) {
            submit(task(id, "voucher", voucher(campaignId, "cust-" + id))).then().statusCode(202);
        }
        awaitFinished(ids).values().forEach(t -> assertEquals("succeeded", t.getString("status"), t.prettify()));
        List<String> codesBefore = campaign(campaignId).getList("vouchers.code");
        assertEquals(3, codesBefore.size());
        long skippedBefore = stat(QUEUE, "skippedDone");

        for (String id : ids) {
            // through the API: refused as a duplicate before it reaches a list
            submit(task(id, "voucher", voucher(campaignId, "cust-" + id))).then()
                    .statusCode(200).body("duplicate", equalTo(true)).body("status", equalTo("succeeded"));
            // straight onto the list, as a producer in another language might redeliver: dropped by the worker
            redis.lpush(keys.pending(whole(QUEUE)), Envelopes.voucher(id, campaignId, "cust-" + id));
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> stat(QUEUE, "skippedDone") - skippedBefore >= ids.size());
        JsonPath campaign = campaign(campaignId);
        assertEquals(codesBefore, campaign.getList("vouchers.code"), "no code was added");
        assertEquals(7, campaign.getLong("stock"));
        for (String id : ids) {
            given().get("/api/tasks/" + id).then().body("status", equalTo("succeeded")).body("attempts", equalTo(1));
        }
    }

    private static List<String> voucherTaskIds(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(uniqueId("voucher-" + i));
        }
        return ids;
    }

    /** Waits until every task is succeeded or failed and returns each one's final JSON. */
    private static Map<String, JsonPath> awaitFinished(List<String> ids) {
        Map<String, JsonPath> finished = new LinkedHashMap<>();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            for (String id : ids) {
                if (!finished.containsKey(id)) {
                    JsonPath task = given().get("/api/tasks/" + id).jsonPath();
                    if (Set.of("succeeded", "failed", "dead").contains(task.getString("status"))) {
                        finished.put(id, task);
                    }
                }
            }
            return finished.size() == ids.size();
        });
        return finished;
    }
}
