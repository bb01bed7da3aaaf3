package io.dedupq.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * /q/openapi documents every JAX-RS endpoint of the HTTP API (/api) (found by scanning the compiled
 * classes, so a new endpoint cannot be forgotten): a success answer, the errors every /api call
 * can get as problem+json, and a request body where one is read.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class OpenApiTest {

    private record Endpoint(String method, String path, boolean readsBody) {
    }

    @Test
    void everyEndpointIsDocumentedWithItsAnswersAndErrors() throws Exception {
        String text = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().asString();
        // kept for reading: what the test judged
        Files.writeString(Paths.get("target", "openapi.json"), text);
        JsonNode doc = new ObjectMapper().readTree(text);
        List<Endpoint> endpoints = endpoints();
        assertTrue(endpoints.size() >= 8, "found " + endpoints);

        for (Endpoint endpoint : endpoints) {
            JsonNode operation = doc.path("paths").path(endpoint.path()).path(endpoint.method());
            assertFalse(operation.isMissingNode(), endpoint + " is missing from /q/openapi");
            JsonNode responses = operation.path("responses");
            assertTrue(codes(responses).stream().anyMatch(code -> code.startsWith("2")), endpoint + " has no 2xx answer");
            for (String code : List.of("401", "403", "503", "507")) {
                assertTrue(responses.has(code), endpoint + " does not document " + code);
            }
            for (String code : codes(responses)) {
                if (code.startsWith("4") || code.startsWith("5")) {
                    assertTrue(problemJson(doc, responses.path(code)), endpoint + " " + code + " is not problem+json");
                }
            }
            if (endpoint.readsBody()) {
                JsonNode body = operation.path("requestBody").path("content").path("application/json");
                assertFalse(body.path("schema").isMissingNode(), endpoint + " has no request schema");
                assertTrue(body.has("examples") || body.has("example"), endpoint + " has no request example");
            }
        }
        assertEquals("X-API-Key", doc.path("components").path("securitySchemes").path(ApiDocumentation.API_KEY).path("name").asText());
        JsonNode queueStats = doc.path("components").path("schemas").path("QueueStats").path("properties");
        for (String total : List.of("duplicatesSkipped", "lostLocks", "cancelled", "revived", "discarded", "waitingGroups",
                "rateWindowStarts", "controls")) {
            assertTrue(queueStats.has(total), "GET /api/queues documents " + total);
        }
        JsonNode controls = doc.path("components").path("schemas").path("QueueControls").path("properties");
        for (String limit : List.of("concurrency", "partitions", "rateLimit", "groupConcurrency", "priorityOrder", "timeoutMs")) {
            assertFalse(controls.path(limit).path("description").asText().isEmpty(), "controls." + limit + " is described");
        }
    }

    /** A response (or the named one it refers to) whose content is application/problem+json. */
    private static boolean problemJson(JsonNode doc, JsonNode response) {
        JsonNode resolved = response;
        if (response.has("$ref")) {
            String name = response.get("$ref").asText().replace("#/components/responses/", "");
            resolved = doc.path("components").path("responses").path(name);
        }
        return resolved.path("content").has(Problem.MEDIA_TYPE);
    }

    private static List<String> codes(JsonNode responses) {
        List<String> codes = new ArrayList<>();
        for (Iterator<String> it = responses.fieldNames(); it.hasNext(); ) {
            codes.add(it.next());
        }
        return codes;
    }

    /** Every resource method under io.dedupq, from the compiled classes. */
    private static List<Endpoint> endpoints() throws IOException, ClassNotFoundException {
        java.nio.file.Path root = Paths.get("target", "classes");
        List<String> classes;
        try (Stream<java.nio.file.Path> files = Files.walk(root.resolve("io/dedupq"))) {
            classes = files.map(f -> root.relativize(f).toString()).filter(f -> f.endsWith(".class") && !f.contains("$"))
                    .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.')).toList();
        }
        List<Endpoint> endpoints = new ArrayList<>();
        for (String name : classes) {
            Class<?> type = Class.forName(name, false, OpenApiTest.class.getClassLoader());
            Path base = type.getAnnotation(Path.class);
            // the HTTP API; the redirects to the dashboard page are left out of the document
            if (base == null || !base.value().startsWith("/api")) {
                continue;
            }
            for (Method method : type.getDeclaredMethods()) {
                String verb = verb(method);
                if (verb != null) {
                    Path sub = method.getAnnotation(Path.class);
                    String path = (base.value() + (sub == null ? "" : "/" + sub.value())).replaceAll("/+", "/")
                            .replaceAll("\\{(\\w+):[^}]*}", "{$1}");
                    endpoints.add(new Endpoint(verb, path.length() > 1 && path.endsWith("/")
                            ? path.substring(0, path.length() - 1) : path,
                            (verb.equals("post") || verb.equals("put")) && method.getParameterCount() > 0
                                    && method.getParameterTypes()[method.getParameterCount() - 1] == byte[].class));
                }
            }
        }
        return endpoints;
    }

    private static String verb(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod http = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (http != null) {
                return http.value().toLowerCase();
            }
        }
        return null;
    }
}
