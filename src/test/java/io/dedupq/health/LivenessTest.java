package io.dedupq.health;

import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.dedupq.support.Api;
import io.dedupq.support.BlockingHandler;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A dispatcher whose only handler slot is held by a handler that does not return stops coming
 * round: liveness turns DOWN naming its queue, and UP again once the handler returns.
 */
@QuarkusTest
@TestProfile(LivenessTest.ShortTimeout.class)
@WithTestResource(RedisTestResource.class)
class LivenessTest {

    public static class ShortTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // above block-timeout (1 s) plus a slow reply on a busy machine, far below the 1 min the handler may block
            return Map.of("dedupq.worker.liveness-timeout", "4s");
        }
    }

    @Inject
    BlockingHandler handler;

    @Test
    void aDispatcherWithEverySlotHeldTurnsLivenessDownWithItsQueueAndUpWhenItIsFree() {
        awaitLiveness(200, "UP");
        given().get("/q/health/live").then()
                .body("checks.find { it.name == 'dispatchers' }.data.queues", containsString(BlockingHandler.TYPE));

        String id = uniqueId("stuck");
        try {
            Api.post(task(id, BlockingHandler.TYPE, Map.of()));
            await().atMost(Duration.ofSeconds(20)).until(() -> handler.running(id));

            awaitLiveness(503, "DOWN");
            given().get("/q/health/live").then()
                    .body("checks.find { it.name == 'dispatchers' }.data.stalled", equalTo(BlockingHandler.TYPE));
        } finally {
            handler.release(id);
        }

        Api.awaitStatus(id, "succeeded");
        awaitLiveness(200, "UP");
    }

    private static void awaitLiveness(int code, String status) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> given().get("/q/health/live").statusCode() == code);
        given().get("/q/health/live").then().statusCode(code).body("status", equalTo(status));
    }
}
