package io.dedupq.health;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.Api;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisServerProfile;
import io.dedupq.support.TestRedis;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Redis as a managed service configures it by default, {@code --maxmemory 8mb
 * --maxmemory-policy volatile-lru}: readiness DOWN naming the policy, no task claimed, until the
 * policy is changed at runtime to noeviction; changed back, the periodic check sees it again.
 */
@QuarkusTest
@TestProfile(EvictingRedisTest.VolatileLru.class)
class EvictingRedisTest {

    public static class VolatileLru extends RedisServerProfile {
        public VolatileLru() {
            super(Map.of("args", "--maxmemory 8mb --maxmemory-policy volatile-lru"),
                    Map.of("dedupq.redis.check-interval", "1s"));
        }
    }

    @Inject
    TestRedis redis;

    @Inject
    FlakyHandler handler;

    @AfterEach
    void evictingAgain() {
        redis.configSet("maxmemory-policy", "volatile-lru");
    }

    @Test
    void readinessIsDownNamingThePolicyAndNothingIsClaimedUntilItIsNoeviction() throws InterruptedException {
        JsonPath down = awaitMemoryCheck(503, "DOWN");
        assertEquals("volatile-lru", down.getString("checks.find { it.name == 'redis-memory' }.data.policy"));
        assertEquals("CONFIG GET", down.getString("checks.find { it.name == 'redis-memory' }.data.policySource"));
        assertTrue(down.getString("checks.find { it.name == 'redis-memory' }.data.evicts").contains("duplicates"),
                down.prettify());
        assertEquals(8L * 1024 * 1024, down.getLong("checks.find { it.name == 'redis-memory' }.data.maxMemory"));

        String id = uniqueId("evicting");
        assertEquals(202, Api.post(task(id, "flaky", flaky(0))));
        Thread.sleep(1_500);
        assertEquals(0, handler.executions(id).size(), "a worker claimed on an evicting Redis");
        given().get("/api/tasks/" + id).then().body("status", equalTo("queued"));

        redis.configSet("maxmemory-policy", "noeviction");
        awaitMemoryCheck(200, "UP");
        awaitStatus(id, "succeeded");
        assertEquals(1, handler.executions(id).size());

        redis.configSet("maxmemory-policy", "allkeys-lru");
        JsonPath again = awaitMemoryCheck(503, "DOWN");
        assertEquals("allkeys-lru", again.getString("checks.find { it.name == 'redis-memory' }.data.policy"));
        given().get("/q/health/ready").then()
                .body("checks.find { it.name == 'redis-memory' }.data.evicts", containsString("lost"));
    }

    static JsonPath awaitMemoryCheck(int code, String status) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
            JsonPath health = given().get("/q/health/ready").jsonPath();
            return status.equals(health.getString("checks.find { it.name == 'redis-memory' }.status"));
        });
        return given().get("/q/health/ready").then().statusCode(code).extract().jsonPath();
    }
}
