package io.dedupq.security;

import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Key rotation: a key name with a secret and a previous secret accepts both at once, with the
 * same name and roles. Audit: every operator action (dead-letter retry and discard, cancel) is one
 * JSON line in category {@code dedupq.audit} naming the key, whichever of its secrets was used.
 */
@QuarkusTest
@TestProfile(ApiKeySecurityTest.Secured.class)
@WithTestResource(RedisTestResource.class)
class KeyRotationAuditTest {

    private static final String NEW_SECRET = ApiKeySecurityTest.OPERATOR_KEY;
    private static final String OLD_SECRET = ApiKeySecurityTest.OPERATOR_PREVIOUS_KEY;
    private static final String PRODUCER_SECRET = ApiKeySecurityTest.PRODUCER_KEY;
    private static final Path LOG = ApiKeySecurityTest.LOG;

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void bothSecretsOfAKeyAreValidAtOnceAndNoOtherIs() {
        given().header("X-API-Key", NEW_SECRET).get("/api/queues").then().statusCode(200);
        given().header("X-API-Key", OLD_SECRET).get("/api/queues").then().statusCode(200);
        given().header("X-API-Key", PRODUCER_SECRET).get("/api/queues").then().statusCode(403);
        given().header("X-API-Key", "operator-older-key-0123456789").get("/api/queues").then().statusCode(401);
    }

    @Test
    void everyOperatorActionIsOneJsonAuditLineNamingTheKey() {
        String id = uniqueId("audited");
        given().header("X-API-Key", PRODUCER_SECRET).contentType(ContentType.JSON)
                .body(task(id, "flaky", Map.of("failures", 0, "permanent", true))).post("/api/tasks")
                .then().statusCode(202);
        await().atMost(Duration.ofSeconds(20)).until(() -> given().header("X-API-Key", NEW_SECRET)
                .get("/api/tasks/" + id).jsonPath().getString("status").equals("failed"));

        given().header("X-API-Key", OLD_SECRET).post("/api/queues/flaky/dead/" + id + "/retry").then().statusCode(202);
        assertAudit("retry", "flaky", id, "done");
        await().atMost(Duration.ofSeconds(20)).until(() -> given().header("X-API-Key", NEW_SECRET)
                .get("/api/tasks/" + id).jsonPath().getString("status").equals("failed"));

        given().header("X-API-Key", NEW_SECRET).delete("/api/queues/flaky/dead/" + id).then().statusCode(204);
        assertAudit("discard", "flaky", id, "done");
        given().header("X-API-Key", NEW_SECRET).delete("/api/queues/flaky/dead/" + id).then().statusCode(404);
        assertAudit("discard", "flaky", id, "not-found");

        given().header("X-API-Key", OLD_SECRET).post("/api/tasks/" + id + "/cancel").then().statusCode(409);
        assertAudit("cancel", "flaky", id, "not-cancellable:failed");
        String unknown = uniqueId("unknown");
        given().header("X-API-Key", NEW_SECRET).post("/api/tasks/" + unknown + "/cancel").then().statusCode(404);
        assertAudit("cancel", "-", unknown, "not-found");

        // a refused caller does nothing and is no operator action
        given().header("X-API-Key", PRODUCER_SECRET).post("/api/tasks/" + id + "/cancel").then().statusCode(403);
    }

    private void assertAudit(String action, String queue, String id, String outcome) {
        String message = "action=" + action + " key=ops queue=" + queue + " task=" + id + " outcome=" + outcome;
        await().atMost(Duration.ofSeconds(10)).until(() -> line(message).isPresent());
        JsonNode line = line(message).orElseThrow();
        assertEquals(OperatorAudit.CATEGORY, line.path("loggerName").asText());
        assertEquals("INFO", line.path("level").asText());
        JsonNode mdc = line.path("mdc");
        assertEquals("ops", mdc.path("key").asText(), line.toString());
        assertEquals(action, mdc.path("action").asText());
        assertEquals(id, mdc.path("task").asText());
        assertEquals(outcome, mdc.path("outcome").asText());
        assertTrue(line.path("timestamp").asText().length() > 0);
    }

    private Optional<JsonNode> line(String message) {
        try {
            if (!Files.exists(LOG)) {
                return Optional.empty();
            }
            for (String text : Files.readAllLines(LOG)) {
                JsonNode line = mapper.readTree(text);
                if (line.path("message").asText().equals(message)) {
                    return Optional.of(line);
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
