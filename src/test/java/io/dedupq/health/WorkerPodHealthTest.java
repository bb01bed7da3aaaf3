package io.dedupq.health;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A worker-only pod has no /api but serves both probes, and liveness lists its queue partitions. */
@QuarkusTest
@TestProfile(WorkerPodHealthTest.WorkerOnly.class)
@WithTestResource(RedisTestResource.class)
class WorkerPodHealthTest {

    public static class WorkerOnly implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dedupq.api.enabled", "false");
        }
    }

    @Test
    void servesBothProbesAndReportsItsPartitions() {
        given().get("/api/queues").then().statusCode(404);
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.find { it.name == 'partitions' }.data.queues", containsString("payment"));
    }
}
