package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.post;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.BlockingHandler;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.Scrape;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A master whose {@code min-replicas-to-write} asks for more replicas than it has refuses every
 * write with NOREPLICAS (the guard operations.md suggests against losing writes in a failover).
 * The API says so (503 problem+json naming the setting, Retry-After), writes nothing, and keeps
 * serving reads: however many enqueues it refuses, the circuit breaker stays closed. A worker
 * whose outcome is refused keeps it and sends it again once the master takes writes. Redis is
 * shared with every other test class, so the setting is back to 0 when each test ends.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class TooFewReplicasTest {

    @Inject
    TestRedis redis;

    @Inject
    FlakyHandler handler;

    @Inject
    BlockingHandler blocking;

    @Test
    void refusedWritesAnswerWhyWriteNothingAndReadsGoOn() {
        String id = uniqueId("too-few-replicas");
        double refusedBefore = Scrape.now().value("dedupq_redis_writes_refused_replicas_total");
        redis.configSet("min-replicas-to-write", "1");
        try {
            // more than the breaker's request volume (4) at its failure ratio: it would be open after these
            for (int i = 0; i < 6; i++) {
                given().contentType(ContentType.JSON).body(task(id, "flaky", flaky(0))).post("/api/tasks").then()
                        .statusCode(503).contentType("application/problem+json").header("Retry-After", notNullValue())
                        .body("type", equalTo("urn:dedupq:problem:too-few-replicas"))
                        .body("detail", containsString("min-replicas-to-write"));
            }
            given().get("/api/queues").then().statusCode(200);
            given().get("/api/tasks/" + id).then().statusCode(404);
            // the workers' calls refused meanwhile count too
            assertTrue(Scrape.now().value("dedupq_redis_writes_refused_replicas_total") - refusedBefore >= 6,
                    "every refusal is counted");
        } finally {
            redis.configSet("min-replicas-to-write", "0");
        }
        assertEquals(202, post(task(id, "flaky", flaky(0))), "nothing of the refused enqueues was written");
        awaitStatus(id, "succeeded");
        assertEquals(1, handler.executions(id).size());
    }

    @Test
    void anOutcomeRefusedForWantOfReplicasIsRecordedOnceTheMasterTakesWrites() {
        String id = uniqueId("too-few-replicas-outcome");
        assertEquals(202, post(task(id, BlockingHandler.TYPE, Map.of())));
        await().atMost(Duration.ofSeconds(20)).until(() -> blocking.running(id));
        redis.configSet("min-replicas-to-write", "1");
        try {
            blocking.release(id);
            await().atMost(Duration.ofSeconds(10)).until(() -> !blocking.running(id));
            // the handler is done, but its outcome cannot be written: the task still reads running
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                    .until(() -> "running".equals(given().get("/api/tasks/" + id).jsonPath().getString("status")));
        } finally {
            redis.configSet("min-replicas-to-write", "0");
        }
        awaitStatus(id, "succeeded");
        assertEquals(1, blocking.executions(id), "ran once");
    }
}
