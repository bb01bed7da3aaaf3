package io.dedupq.security;

import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * With security on: every endpoint answered for no key, a wrong key, a producer key and an
 * operator key, as the roles table of README says. Refusals are problem+json and change nothing;
 * probes and metrics stay open.
 */
@QuarkusTest
@TestProfile(ApiKeySecurityTest.Secured.class)
@WithTestResource(RedisTestResource.class)
public class ApiKeySecurityTest {

    public static final String PRODUCER_KEY = "producer-key-0123456789";
    static final String OPERATOR_KEY = "operator-key-0123456789";
    /** The operator key's secret before its rotation (KeyRotationAuditTest). */
    static final String OPERATOR_PREVIOUS_KEY = "operator-old-key-0123456789";
    /** The JSON log KeyRotationAuditTest reads its audit lines from, JsonOutcomeLogTest its outcome lines. */
    public static final Path LOG = Path.of("target", "audit-log", "dedupq.log");
    private static final String WRONG_KEY = "wrong-key-0123456789xx";

    /**
     * Shared with KeyRotationAuditTest and JsonOutcomeLogTest, so that their tests need no app of
     * their own (each profile costs the suite about 8 s: its augmentation, a start and a stop).
     */
    public static class Secured implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dedupq.security.enabled", "true",
                    "dedupq.security.keys.orders.secret", PRODUCER_KEY,
                    "dedupq.security.keys.orders.roles", "producer",
                    "dedupq.security.keys.ops.secret", OPERATOR_KEY,
                    "dedupq.security.keys.ops.previous-secret", OPERATOR_PREVIOUS_KEY,
                    "dedupq.security.keys.ops.roles", "operator",
                    "quarkus.log.file.enabled", "true",
                    "quarkus.log.file.path", LOG.toString(),
                    "quarkus.log.file.json.enabled", "true",
                    "quarkus.log.category.\"io.dedupq.worker.TaskRunner\".level", "INFO");
        }
    }

    /** One endpoint and the status each caller gets: none, wrong key, producer, operator. */
    private record Case(String name, Function<RequestSpecification, Response> call, int none, int wrong, int producer,
            int operator) {
    }

    private static List<Case> cases() {
        String account = uniqueId("acc");
        String campaign = uniqueId("camp");
        return List.of(
                new Case("POST /api/tasks", r -> r.contentType(ContentType.JSON)
                        .body(task(uniqueId("sec"), "flaky", flaky(0))).post("/api/tasks"), 401, 401, 202, 202),
                new Case("POST /api/tasks/batch", r -> r.contentType(ContentType.JSON)
                        .body(Map.of("tasks", List.of(task(uniqueId("sec"), "flaky", flaky(0))))).post("/api/tasks/batch"),
                        401, 401, 200, 200),
                new Case("GET /api/tasks/{id}", r -> r.get("/api/tasks/" + uniqueId("unknown")), 401, 401, 404, 404),
                new Case("GET /api/queues", r -> r.get("/api/queues"), 401, 401, 403, 200),
                new Case("GET /api/queues/{queue}/tasks", r -> r.get("/api/queues/flaky/tasks?state=running"),
                        401, 401, 403, 200),
                new Case("PUT /api/accounts/{id}", r -> r.contentType(ContentType.JSON)
                        .body(Map.of("currency", "EUR", "balance", "10.00")).put("/api/accounts/" + account),
                        401, 401, 403, 201),
                new Case("GET /api/accounts/{id}", r -> r.get("/api/accounts/" + account), 401, 401, 403, 200),
                new Case("PUT /api/campaigns/{id}", r -> r.contentType(ContentType.JSON)
                        .body(Map.of("stock", 5, "value", "10.00", "currency", "EUR")).put("/api/campaigns/" + campaign),
                        401, 401, 403, 201),
                new Case("GET /api/campaigns/{id}", r -> r.get("/api/campaigns/" + campaign), 401, 401, 403, 200),
                new Case("POST /api/tasks/{id}/cancel", r -> r.post("/api/tasks/" + uniqueId("unknown") + "/cancel"),
                        401, 401, 403, 404),
                new Case("GET /api/queues/{queue}/dead", r -> r.get("/api/queues/flaky/dead"), 401, 401, 403, 200),
                new Case("POST /api/queues/{queue}/dead/{id}/retry",
                        r -> r.post("/api/queues/flaky/dead/" + uniqueId("unknown") + "/retry"), 401, 401, 403, 404),
                new Case("DELETE /api/queues/{queue}/dead/{id}",
                        r -> r.delete("/api/queues/flaky/dead/" + uniqueId("unknown")), 401, 401, 403, 404),
                new Case("POST /api/queues/{queue}/pause", r -> r.post("/api/queues/" + uniqueId("unknown") + "/pause"),
                        401, 401, 403, 404),
                // resuming a running queue changes nothing
                new Case("POST /api/queues/{queue}/resume", r -> r.post("/api/queues/flaky/resume"), 401, 401, 403, 200),
                new Case("GET /api/workers", r -> r.get("/api/workers"), 401, 401, 403, 200),
                new Case("GET /dashboard (the page is public)", r -> r.redirects().follow(false).get("/dashboard"),
                        303, 303, 303, 303),
                new Case("GET /api/rollups", r -> r.get("/api/rollups"), 401, 401, 403, 200),
                new Case("GET /q/health/live", r -> r.get("/q/health/live"), 200, 200, 200, 200),
                new Case("GET /q/health/ready", r -> r.get("/q/health/ready"), 200, 200, 200, 200),
                new Case("GET /q/metrics", r -> r.get("/q/metrics"), 200, 200, 200, 200));
    }

    @Test
    void everyEndpointAnswersEachCallerAsItsRoleAllows() {
        for (Case c : cases()) {
            expect(c, "no key", c.call().apply(given()), c.none());
            expect(c, "wrong key", c.call().apply(given().header("X-API-Key", WRONG_KEY)), c.wrong());
            expect(c, "producer key", c.call().apply(given().header("X-API-Key", PRODUCER_KEY)), c.producer());
            expect(c, "operator key", c.call().apply(given().header("X-API-Key", OPERATOR_KEY)), c.operator());
        }
    }

    @Test
    void aRefusedSubmissionEnqueuesNothing() {
        String id = uniqueId("refused");
        Response refused = given().header("X-API-Key", WRONG_KEY).contentType(ContentType.JSON)
                .body(task(id, "flaky", flaky(0))).post("/api/tasks");
        assertEquals(401, refused.statusCode());
        assertEquals("ApiKey header=\"X-API-Key\"", refused.header("WWW-Authenticate"));

        given().header("X-API-Key", PRODUCER_KEY).get("/api/tasks/" + id).then().statusCode(404);
    }

    private static void expect(Case c, String caller, Response response, int status) {
        String what = c.name() + " with " + caller + ": " + response.asString();
        assertEquals(status, response.statusCode(), what);
        if (status == 401 || status == 403) {
            assertTrue(response.contentType().startsWith("application/problem+json"), what);
            assertEquals(status, response.jsonPath().getInt("status"), what);
        }
    }
}
