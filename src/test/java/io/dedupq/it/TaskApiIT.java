package io.dedupq.it;

import static io.dedupq.support.Api.account;
import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.openAccount;
import static io.dedupq.support.Api.payment;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.support.OperatorKeyResource;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.path.json.JsonPath;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The task API against the packaged application (the JVM jar here, the native binary under
 * {@code -Dnative}), in the prod profile, with its Redis started by the test resource: enqueue,
 * status, and duplicates that never run twice. Security is on, as in production: every call
 * carries the operator key of {@link OperatorKeyResource}.
 */
@QuarkusIntegrationTest
@WithTestResource(RedisTestResource.class)
@WithTestResource(OperatorKeyResource.class)
class TaskApiIT {

    @Test
    void enqueuedPaymentRunsAndReportsItsStatus() {
        String accountId = openAccount("EUR", "100.00");
        String id = uniqueId("it-pay");
        submit(task(id, "payment", payment(accountId, "12.50"))).then().statusCode(202)
                .body("id", equalTo(id)).body("queue", equalTo("payment")).body("status", equalTo("queued"));

        JsonPath status = awaitStatus(id, "succeeded");
        assertEquals("payment", status.getString("type"));
        assertEquals(1, status.getInt("attempts"));
        given().get("/api/tasks/" + id).then()
                .body("enqueuedAt", greaterThanOrEqualTo(0L))
                .body("finishedAt", greaterThanOrEqualTo(status.getLong("startedAt")));
        assertEquals(new BigDecimal("87.50"), account(accountId).get("balance"));
    }

    @Test
    void resubmittedAndBatchedDuplicatesChargeOnce() {
        String accountId = openAccount("EUR", "50.00");
        String id = uniqueId("it-dup");
        Map<String, Object> pay = task(id, "payment", payment(accountId, "5.00"));
        submit(pay).then().statusCode(202);
        submit(pay).then().statusCode(200).body("duplicate", equalTo(true));
        submitBatch(List.of(pay, pay)).then().statusCode(200)
                .body("accepted", equalTo(0)).body("duplicates", equalTo(2));
        submit(task(id, "payment", payment(accountId, "6.00"))).then().statusCode(409)
                .contentType("application/problem+json");

        awaitStatus(id, "succeeded");
        submit(pay).then().statusCode(200).body("status", equalTo("succeeded"));
        JsonPath ledger = account(accountId);
        assertEquals(new BigDecimal("45.00"), ledger.get("balance"));
        assertEquals(1, ledger.getList("ledger").size());
    }

    @Test
    void unknownTaskIs404AndQueuesAreListed() {
        given().get("/api/tasks/" + uniqueId("never")).then().statusCode(404)
                .contentType("application/problem+json");
        given().get("/api/queues").then().statusCode(200)
                .body("queue", hasItems("payment", "voucher"));
    }
}
