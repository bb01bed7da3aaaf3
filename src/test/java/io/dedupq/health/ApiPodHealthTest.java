package io.dedupq.health;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An API-only pod runs no partition owners: it is live with none reported, and ready while Redis is. */
@QuarkusTest
@TestProfile(ApiPodHealthTest.ApiOnly.class)
@WithTestResource(RedisTestResource.class)
class ApiPodHealthTest {

    public static class ApiOnly implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dedupq.worker.enabled", "false");
        }
    }

    @Test
    void isLiveWithNoPartitionOwnersAndReady() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.find { it.name == 'partitions' }.data.queues", equalTo(""));
    }
}
