package io.dedupq.api;

import io.restassured.RestAssured;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * One HTTP request the API must refuse, and the resources (GET paths) that must still be unknown
 * after it. Sent with the JDK client rather than RestAssured, which would add a charset to the
 * content type, re-encode the path and try to encode form and multipart bodies itself: these
 * requests must reach the server exactly as written.
 *
 * @param contentType null sends no Content-Type header
 * @param body        null sends no body
 */
record BadRequest(String method, String path, String contentType, byte[] body, List<String> absentAfter) {

    static final String JSON = "application/json";

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    static BadRequest post(String path, byte[] body, String... absentAfter) {
        return new BadRequest("POST", path, JSON, body, List.of(absentAfter));
    }

    static BadRequest put(String path, byte[] body, String... absentAfter) {
        return new BadRequest("PUT", path, JSON, body, List.of(absentAfter));
    }

    static BadRequest get(String path) {
        return new BadRequest("GET", path, null, null, List.of());
    }

    BadRequest withContentType(String type) {
        return new BadRequest(method, path, type, body, absentAfter);
    }

    HttpResponse<String> send() {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError("no answer to " + describe() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Method, path and the start of the body, for failure messages. */
    String describe() {
        String text = body == null ? "(no body)" : new String(body, StandardCharsets.UTF_8);
        return method + " " + Problems.shorten(path) + " [" + contentType + "] " + Problems.shorten(text.replace("\n", "\\n"));
    }

    /** Percent-encodes every byte outside the URI's unreserved characters, so any id fits in one path segment. */
    static String segment(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }
}
