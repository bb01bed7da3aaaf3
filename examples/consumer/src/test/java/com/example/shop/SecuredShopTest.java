package com.example.shop;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * With dedupq's API keys on, as in production: dedupq's endpoints want a key, the shop's own
 * endpoints do not (the shop authenticates proactively, Quarkus's default, unlike the dedupq
 * service).
 */
@QuarkusTest
@WithTestResource(ShopDatabase.class)
@TestProfile(SecuredShopTest.Keys.class)
class SecuredShopTest {

    private static final String KEY = "shop-key-0123456789abcdef";

    public static class Keys implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dedupq.security.enabled", "true", "dedupq.security.keys.shop.secret", KEY,
                    "dedupq.security.keys.shop.roles", "producer");
        }
    }

    private static Map<String, Object> task(String id) {
        return Map.of("id", id, "type", "welcome-email", "payload", Map.of("to", "ada@example.com", "name", "Ada"));
    }

    @Test
    void dedupqsEndpointsWantAKeyAndTheShopsDoNot() {
        String id = "welcome-" + UUID.randomUUID();
        given().contentType(ContentType.JSON).body(task(id)).post("/api/tasks")
                .then().statusCode(401).contentType("application/problem+json");
        given().header("X-API-Key", "wrong-key-0123456789abcd").contentType(ContentType.JSON).body(task(id))
                .post("/api/tasks").then().statusCode(401).contentType("application/problem+json");
        given().header("X-API-Key", KEY).contentType(ContentType.JSON).body(task(id)).post("/api/tasks")
                .then().statusCode(202).body("id", equalTo(id));
        given().header("X-API-Key", KEY).get("/api/queues").then().statusCode(403);

        given().get("/shop/outbox").then().statusCode(200);
        given().post("/shop/maintenance/reindex").then().statusCode(200);
        given().get("/q/health/ready").then().statusCode(200);
    }
}
