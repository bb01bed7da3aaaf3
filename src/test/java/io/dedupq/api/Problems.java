package io.dedupq.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.response.Response;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/** What every refused request must look like to a client: an RFC 9457 document and nothing internal. */
final class Problems {

    static final String MEDIA_TYPE = "application/problem+json";

    /** Text that only a stack trace or an internal class name would put into a response. */
    private static final List<String> LEAKS = List.of("at io.", "at java.", "\tat ", "Exception", "Caused by",
            ".java:", "com.fasterxml", "org.jboss", "io.vertx", "io.quarkus");

    /** Plain Jackson: RestAssured's JsonPath (Groovy) costs ~10 ms a document, too slow for a thousand. */
    private static final ObjectMapper JSON = new ObjectMapper();

    private Problems() {
    }

    /** The parts of a response that a check looks at, from either HTTP client. */
    record Reply(int status, String contentType, String body) {

        static Reply of(Response response) {
            return new Reply(response.statusCode(), response.contentType(), response.asString());
        }

        static Reply of(HttpResponse<String> response) {
            return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(null),
                    response.body());
        }
    }

    /** Checks the parts every problem shares and returns the parsed document. */
    static JsonNode check(Reply reply) {
        String body = reply.body();
        String contentType = reply.contentType();
        assertTrue(contentType != null && contentType.startsWith(MEDIA_TYPE),
                () -> "content type " + contentType + " for status " + reply.status() + ": " + shorten(body));
        JsonNode problem = parse(body);
        assertEquals(reply.status(), problem.path("status").asInt(), () -> "status field of " + shorten(body));
        assertTrue(problem.path("title").isTextual(), () -> "title of " + shorten(body));
        for (String leak : LEAKS) {
            assertFalse(body.contains(leak), () -> "internal detail '" + leak + "' leaks in " + shorten(body));
        }
        return problem;
    }

    /** A problem with this status that names {@code field} in {@code errors[].field} (null: no field to name). */
    static JsonNode check(Reply reply, int status, String field) {
        assertEquals(status, reply.status(), () -> shorten(reply.body()));
        JsonNode problem = check(reply);
        if (field != null) {
            List<String> fields = new ArrayList<>();
            problem.path("errors").forEach(error -> fields.add(error.path("field").asText()));
            assertTrue(fields.contains(field), () -> "errors[].field should name " + field + ": " + shorten(reply.body()));
        }
        return problem;
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new AssertionError("not JSON: " + shorten(body), e);
        }
    }

    static String shorten(String text) {
        return text.length() <= 500 ? text : text.substring(0, 500) + "...(" + text.length() + " chars)";
    }
}
