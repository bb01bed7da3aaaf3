package io.dedupq.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pod with both roles switched off serves HTTP but neither the API nor a worker. */
@QuarkusTest
@TestProfile(PodRolesTest.NoRoles.class)
@WithTestResource(RedisTestResource.class)
class PodRolesTest {

    public static class NoRoles implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dedupq.api.enabled", "false", "dedupq.worker.enabled", "false");
        }
    }

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    @Test
    void apiAnswers404ProblemWhenDisabled() {
        given().contentType("application/json").body("{\"type\":\"voucher\",\"payload\":{}}").post("/api/tasks")
                .then().statusCode(404).contentType("application/problem+json")
                .body("type", equalTo("urn:dedupq:problem:api-disabled"));
        given().get("/api/queues").then().statusCode(404);
    }

    @Test
    void noWorkerRegistersWhenDisabled() {
        assertEquals(0, redis.send(Request.cmd(Command.ZCARD).arg(keys.workers())).toLong());
    }
}
