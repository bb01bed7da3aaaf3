package com.example.shop;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The shop as its team would test it, against the private redis-server that dedupq starts in
 * test mode: its handler runs once per task id, dedupq validates the shop's payload, and the
 * shop's own endpoints and configuration are as the shop made them.
 */
@QuarkusTest
@WithTestResource(ShopDatabase.class)
class ShopTest {

    @Inject
    Outbox outbox;

    @Inject
    RedisDataSource redis;

    private static Map<String, Object> task(String id, String to) {
        return Map.of("id", id, "type", "welcome-email", "payload", Map.of("to", to, "name", "Ada"));
    }

    private long mailsFor(String id) {
        return outbox.sent().stream().filter(m -> m.taskId().equals(id)).count();
    }

    @Test
    void aTaskSentThreeTimesOverHttpAndThreeTimesByLpushRunsOnce() {
        String id = "welcome-" + UUID.randomUUID();
        given().contentType(ContentType.JSON).body(task(id, "ada@example.com")).post("/api/tasks")
                .then().statusCode(202).body("queue", equalTo("welcome-email"));
        for (int i = 0; i < 2; i++) {
            given().contentType(ContentType.JSON).body(task(id, "ada@example.com")).post("/api/tasks")
                    .then().statusCode(200).body("duplicate", equalTo(true));
        }
        // the documented envelope, pushed as any language would
        String envelope = "{\"id\":\"" + id + "\",\"type\":\"welcome-email\",\"payload\":{\"to\":\"ada@example.com\","
                + "\"name\":\"Ada\"},\"attempt\":0}";
        for (int i = 0; i < 3; i++) {
            redis.list(String.class).lpush("{dedupq:welcome-email}:pending", envelope);
        }

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            given().get("/api/tasks/" + id).then().statusCode(200).body("status", equalTo("succeeded"));
            assertEquals(0, redis.list(String.class).llen("{dedupq:welcome-email}:pending"), "every copy was taken");
        });
        // the copies pushed after the first run are dropped as duplicates, never run
        await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertEquals(1, mailsFor(id), "one mail for six deliveries of " + id));
    }

    @Test
    void theShopsOwnEndpointEnqueuesInProcessOncePerUserAndNeedsNoKey() {
        String user = "u" + UUID.randomUUID().toString().substring(0, 8);
        given().queryParam("email", user + "@example.com").post("/shop/signups/" + user)
                .then().statusCode(200).body("duplicate", equalTo(false));
        given().queryParam("email", user + "@example.com").post("/shop/signups/" + user)
                .then().statusCode(200).body("duplicate", equalTo(true));

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().get("/shop/outbox").then().statusCode(200)
                .body("taskId", hasItem("welcome-" + user)));
        assertEquals(1, mailsFor("welcome-" + user));
    }

    @Test
    void aPayloadOfTheShopsTypeThatIsInvalidIsAProblemNamingTheFieldAndEnqueuesNothing() {
        String id = "welcome-" + UUID.randomUUID();
        given().contentType(ContentType.JSON).body(task(id, "not-an-address")).post("/api/tasks")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", equalTo(List.of("payload.to")));
        given().get("/api/tasks/" + id).then().statusCode(404);
    }

    @Test
    void theServicesExampleEndpointsAreNotHere() {
        given().contentType(ContentType.JSON).body(Map.of("currency", "EUR", "balance", "10.00"))
                .put("/api/accounts/acc-1").then().statusCode(404);
        given().redirects().follow(false).get("/").then().statusCode(404);
    }

    @Test
    void aLockedJobAndAOncePerTickScheduleRun() {
        given().post("/shop/maintenance/reindex").then().statusCode(200).body("ran", equalTo(true));
        // a cron of every second in the test profile: it has run within a few seconds
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/shop/maintenance/digests")
                .then().statusCode(200).body("runs", greaterThan(0)));
    }

    @Test
    void readinessIsUpWithDedupqsRedisCheck() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.name", hasItem("redis"));
    }
}
