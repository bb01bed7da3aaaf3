package io.dedupq.support;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Short-hands for the HTTP calls the tests make again and again. */
public final class Api {

    private static final JsonPathConfig EXACT = JsonPathConfig.jsonPathConfig()
            .numberReturnType(JsonPathConfig.NumberReturnType.BIG_DECIMAL);

    private Api() {
    }

    /** A fresh id, so tests never see each other's tasks, accounts or campaigns. */
    public static String uniqueId(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    public static String openAccount(String currency, String balance) {
        String id = uniqueId("acc");
        given().contentType(ContentType.JSON).body(Map.of("currency", currency, "balance", balance))
                .put("/api/accounts/" + id).then().statusCode(201);
        return id;
    }

    public static String openCampaign(long stock) {
        String id = uniqueId("camp");
        given().contentType(ContentType.JSON).body(Map.of("stock", stock, "value", "10.00", "currency", "EUR"))
                .put("/api/campaigns/" + id).then().statusCode(201);
        return id;
    }

    public static Map<String, Object> payment(String accountId, String amount) {
        return Map.of("accountId", accountId, "amount", amount, "currency", "EUR", "reference", "test");
    }

    public static Map<String, Object> voucher(String campaignId, String customerId) {
        return Map.of("campaignId", campaignId, "customerId", customerId);
    }

    public static Map<String, Object> flaky(int failures) {
        return Map.of("failures", failures);
    }

    public static Map<String, Object> task(String id, String type, Object payload) {
        return Map.of("id", id, "type", type, "payload", payload);
    }

    /** A task of a flaky-payload type that sleeps {@code sleepMillis}, with a group and a priority where not null. */
    public static Map<String, Object> sleeping(String id, String type, int sleepMillis, String group, Integer priority) {
        Map<String, Object> task = new HashMap<>(task(id, type, Map.of("failures", 0, "sleepMillis", sleepMillis)));
        if (group != null) {
            task.put("group", group);
        }
        if (priority != null) {
            task.put("priority", priority);
        }
        return task;
    }

    public static int post(Map<String, Object> task) {
        return given().contentType(ContentType.JSON).body(task).post("/api/tasks").statusCode();
    }

    /** POST /api/tasks, the whole response. */
    public static Response submit(Map<String, Object> task) {
        return given().contentType(ContentType.JSON).body(task).post("/api/tasks");
    }

    /**
     * POST /api/tasks until the answer is not a 503, as README tells producers (retry with the same
     * id; a busy 2-core machine does time out), and describe it: "202", "200 duplicate", or the
     * status. A 202 whose reply was lost to a timeout reads as "200 duplicate" on the retry.
     */
    public static String submitUntilAnswered(Map<String, Object> task) {
        for (int attempt = 0; ; attempt++) {
            Response response = submit(task);
            if (response.statusCode() != 503 || attempt == 20) {
                boolean duplicate = Boolean.TRUE.equals(response.jsonPath().get("duplicate"));
                return response.statusCode() + (duplicate ? " duplicate" : "");
            }
            try {
                Thread.sleep(200); // the circuit breaker stays open for 2 s: 20 tries outlast it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** POST /api/tasks/batch with {"tasks": [...]}, the whole response. */
    public static Response submitBatch(List<Map<String, Object>> tasks) {
        return given().contentType(ContentType.JSON).body(Map.of("tasks", tasks)).post("/api/tasks/batch");
    }

    /** GET /api/accounts/{id}; decimals read as BigDecimal, since money must compare exactly. */
    public static JsonPath account(String id) {
        return given().get("/api/accounts/" + id).then().statusCode(200).extract().jsonPath().using(EXACT);
    }

    public static JsonPath campaign(String id) {
        return given().get("/api/campaigns/" + id).then().statusCode(200).extract().jsonPath().using(EXACT);
    }

    /** Waits until the task reaches {@code status} and returns its JSON. */
    public static JsonPath awaitStatus(String id, String status) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> assertEquals(
                status, given().get("/api/tasks/" + id).jsonPath().getString("status"), "status of task " + id));
        return given().get("/api/tasks/" + id).jsonPath();
    }

    /** One count of one queue, as GET /api/queues reports it. */
    public static long stat(String queue, String field) {
        return given().get("/api/queues").then().statusCode(200).extract().jsonPath()
                .getLong("find { it.queue == '" + queue + "' }." + field);
    }
}
