package io.dedupq.config;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.support.Api;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.SecuredRedisResource;
import io.quarkus.test.junit.QuarkusTestProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The whole path — enqueue, a worker runs the task, its status is read — against a Redis that
 * needs credentials or TLS. Subclasses pick the server; each first proves that the server
 * refuses what the app must not get away with.
 */
abstract class SecuredRedisTest {

    /** A profile whose only Redis is a {@link SecuredRedisResource} in the given mode. */
    abstract static class SecuredRedis implements QuarkusTestProfile {
        private final String mode;

        SecuredRedis(String mode) {
            this.mode = mode;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(SecuredRedisResource.class, Map.of("mode", mode)));
        }
    }

    @Inject
    FlakyHandler handler;

    @Test
    void tasksAreEnqueuedRunAndReadThroughTheSecuredConnection() {
        String id = uniqueId("secured-redis");
        assertEquals(202, Api.post(task(id, "flaky", flaky(1))));

        awaitStatus(id, "succeeded");
        assertEquals(2, handler.executions(id).size(), "one retry, then success");
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }
}
