package com.example.shop;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Orders against the shop's own PostgreSQL: an order and its charge task commit together
 * (dedupq's outbox), the charge row is written once through dedupq's fenced writes, and an order
 * rolled back for lack of stock is never charged. Everything is checked through HTTP.
 */
@QuarkusTest
@WithTestResource(ShopDatabase.class)
class OrdersTest {

    private static String newId() {
        return "o-" + UUID.randomUUID();
    }

    private static void place(String id, String item, int quantity, int status) {
        given().contentType(ContentType.JSON).body(Map.of("id", id, "item", item, "quantity", quantity))
                .post("/shop/orders").then().statusCode(status);
    }

    @Test
    void aCommittedOrderGetsExactlyOneCharge() {
        String id = newId();
        place(id, "book", 2, 201);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().get("/api/tasks/pay-" + id)
                .then().statusCode(200).body("status", equalTo("succeeded")));
        given().get("/shop/orders/" + id + "/charges").then().statusCode(200)
                .body("$", hasSize(1)).body("[0].amountCents", equalTo(2500));
    }

    @Test
    void theSameChargeTaskSentAgainChargesNothingMore() {
        String id = newId();
        place(id, "book", 1, 201);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().get("/api/tasks/pay-" + id)
                .then().statusCode(200).body("status", equalTo("succeeded")));
        // a client retrying the enqueue by hand: the id is known, the task runs no second time
        given().contentType(ContentType.JSON).body(Map.of("id", "pay-" + id, "type", "charge",
                "payload", Map.of("orderId", id, "amountCents", 1250))).post("/api/tasks")
                .then().statusCode(200).body("duplicate", equalTo(true));
        given().get("/shop/orders/" + id + "/charges").then().body("$", hasSize(1));
    }

    @Test
    void anOrderRolledBackForLackOfStockGetsNoTaskAndNoCharge() {
        String rolledBack = newId();
        place(rolledBack, "rare-stamp", 1, 409);
        // placed after it, charged after it: the relay moves the outbox in commit order
        String later = newId();
        place(later, "book", 1, 201);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().get("/api/tasks/pay-" + later)
                .then().statusCode(200).body("status", equalTo("succeeded")));

        given().get("/api/tasks/pay-" + rolledBack).then().statusCode(404);
        given().get("/shop/orders/" + rolledBack + "/charges").then().statusCode(200).body("$", hasSize(0));
    }

    @Test
    void aBadOrderIsAProblemNamingTheField() {
        given().contentType(ContentType.JSON).body(Map.of("id", newId(), "item", "book", "quantity", 0))
                .post("/shop/orders").then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", equalTo("quantity"));
        given().contentType(ContentType.JSON).body(Map.of("id", newId(), "item", "unicorn", "quantity", 1))
                .post("/shop/orders").then().statusCode(400).body("errors[0].field", equalTo("item"));
    }
}
