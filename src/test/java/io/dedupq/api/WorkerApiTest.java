package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.post;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.BlockingHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.worker.WorkerIdentity;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** GET /api/workers: each worker with the tasks it runs right now, read from its processing lists. */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class WorkerApiTest {

    @Inject
    BlockingHandler blocking;

    @Inject
    WorkerIdentity worker;

    @Test
    void aWorkerListsTheTaskItRunsWithItsQueueAttemptAndStartUntilItFinishes() {
        String id = uniqueId("running");
        try {
            assertEquals(202, post(task(id, BlockingHandler.TYPE, Map.of())));
            await().atMost(Duration.ofSeconds(20)).until(() -> blocking.running(id));

            Map<String, Object> running = runningTask(id);
            assertNotNull(running, "worker " + worker.id() + " does not list " + id);
            assertEquals(BlockingHandler.TYPE, running.get("queue"));
            assertEquals(0, running.get("attempt"));
            long startedAt = given().get("/api/tasks/" + id).then().statusCode(200).extract().jsonPath().getLong("startedAt");
            assertEquals(startedAt, ((Number) running.get("since")).longValue(), "since is the task's startedAt");
            assertTrue(((Number) running.get("elapsedMs")).longValue() >= 0);
        } finally {
            blocking.release(id);
        }
        awaitStatus(id, "succeeded");
        await().atMost(Duration.ofSeconds(10)).until(() -> runningTask(id) == null);
    }

    private Map<String, Object> runningTask(String id) {
        return given().get("/api/workers").then().statusCode(200).extract().jsonPath()
                .getMap("find { it.id == '" + worker.id() + "' }.running.find { it.id == '" + id + "' }");
    }
}
