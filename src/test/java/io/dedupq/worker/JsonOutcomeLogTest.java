package io.dedupq.worker;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.support.Api;
import io.dedupq.security.ApiKeySecurityTest;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * JSON logging switched on by configuration alone: every line is one JSON object, and a task's
 * outcome line carries its id, queue, attempt and duration. The file handler is used here
 * because the console belongs to the build; {@code quarkus.log.console.json.enabled} switches
 * the console with the same formatter.
 */
@QuarkusTest
@TestProfile(ApiKeySecurityTest.Secured.class)
@WithTestResource(RedisTestResource.class)
class JsonOutcomeLogTest {

    private static final Path LOG = ApiKeySecurityTest.LOG;

    /** The profile has API keys on: these tests are a producer. */
    @BeforeEach
    void asProducer() {
        RestAssured.requestSpecification = new RequestSpecBuilder().addHeader("X-API-Key", ApiKeySecurityTest.PRODUCER_KEY)
                .build();
    }

    @AfterEach
    void anonymous() {
        RestAssured.requestSpecification = null;
    }

    @Test
    void theOutcomeLineOfATaskIsOneJsonObject() throws IOException {
        String id = uniqueId("json-log");
        assertEquals(202, Api.post(task(id, "flaky", flaky(0))));
        awaitStatus(id, "succeeded");

        ObjectMapper mapper = new ObjectMapper();
        await().atMost(Duration.ofSeconds(10)).until(() -> outcomeLine(id).isPresent());
        for (String line : Files.readAllLines(LOG)) {
            assertTrue(mapper.readTree(line).isObject(), "not a JSON object: " + line);
        }
        JsonNode outcome = mapper.readTree(outcomeLine(id).orElseThrow());
        assertEquals("INFO", outcome.path("level").asText());
        assertEquals("io.dedupq.worker.TaskRunner", outcome.path("loggerName").asText());
        String message = outcome.path("message").asText();
        assertTrue(message.matches("task=" + id + " queue=flaky type=flaky attempt=0 outcome=succeeded duration_ms=\\d+"),
                message);
    }

    @Test
    void aFailedAttemptIsLoggedAsAWarningAndTheSuccessAfterItAsInfo() throws IOException {
        String id = uniqueId("json-log-retry");
        assertEquals(202, Api.post(task(id, "flaky", flaky(1))));
        awaitStatus(id, "succeeded");

        ObjectMapper mapper = new ObjectMapper();
        await().atMost(Duration.ofSeconds(10)).until(() -> outcomeLine(id, "outcome=succeeded").isPresent());
        JsonNode retrying = mapper.readTree(outcomeLine(id, "attempt=0 outcome=retrying").orElseThrow());
        assertEquals("WARN", retrying.path("level").asText());
        JsonNode succeeded = mapper.readTree(outcomeLine(id, "attempt=1 outcome=succeeded").orElseThrow());
        assertEquals("INFO", succeeded.path("level").asText());
    }

    private static Optional<String> outcomeLine(String id) throws IOException {
        return outcomeLine(id, "");
    }

    private static Optional<String> outcomeLine(String id, String saying) throws IOException {
        List<String> lines = Files.exists(LOG) ? Files.readAllLines(LOG) : List.of();
        return lines.stream().filter(line -> line.contains("task=" + id + " ") && line.contains(saying)).findFirst();
    }
}
