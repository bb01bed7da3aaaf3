package io.dedupq.fault;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.support.AppJvm;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HTTP calls to the api pods, taken in turn as a load balancer would. A 503 (Redis restarting) or a broken connection is answered the
 * way the 503 problem tells clients to: send the same request again, with the same ids, until
 * a definitive answer comes. Every such resend is counted.
 */
final class HttpApi {

    /** A definitive answer: status and JSON body. */
    record Answer(int status, JsonNode body) {
    }

    private static final Duration GIVE_UP_AFTER = Duration.ofSeconds(90);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private final List<String> bases;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong resends = new AtomicLong();

    HttpApi(int... ports) {
        this.bases = Arrays.stream(ports).mapToObj(port -> "http://127.0.0.1:" + port).toList();
    }

    private String base() {
        return bases.get((int) (calls.getAndIncrement() % bases.size()));
    }

    /** Requests sent again after a 503 or a broken connection. */
    long resends() {
        return resends.get();
    }

    Answer get(String path) {
        return call(HttpRequest.newBuilder(URI.create(base() + path)).GET());
    }

    Answer post(String path, Object body) {
        return call(HttpRequest.newBuilder(URI.create(base() + path)).POST(json(body)));
    }

    Answer put(String path, Object body) {
        return call(HttpRequest.newBuilder(URI.create(base() + path)).PUT(json(body)));
    }

    /** GET that must answer 200. */
    JsonNode read(String path) {
        Answer answer = get(path);
        if (answer.status() != 200) {
            throw new AssertionError("GET " + path + " answered " + answer.status() + ": " + answer.body());
        }
        return answer.body();
    }

    private Answer call(HttpRequest.Builder request) {
        HttpRequest built = request.timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json")
                .header("Accept", "application/json").header("X-API-Key", WorkerFleet.API_KEY).build();
        long deadline = System.nanoTime() + GIVE_UP_AFTER.toNanos();
        long backoff = 100;
        while (true) {
            try {
                HttpResponse<String> reply = client.send(built, HttpResponse.BodyHandlers.ofString());
                if (reply.statusCode() != 503) {
                    return new Answer(reply.statusCode(), parse(reply.body()));
                }
            } catch (IOException unanswered) {
                // connection refused or cut: the outcome is unknown, sending the same ids again is safe
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(built.method() + " " + built.uri() + " got no answer but 503 for " + GIVE_UP_AFTER);
            }
            resends.incrementAndGet();
            AppJvm.sleep(backoff);
            backoff = Math.min(1000, backoff * 2);
        }
    }

    private HttpRequest.BodyPublisher json(Object body) {
        try {
            return HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private JsonNode parse(String body) {
        try {
            return body.isEmpty() ? mapper.nullNode() : mapper.readTree(body);
        } catch (JsonProcessingException e) {
            return mapper.getNodeFactory().textNode(body);
        }
    }
}
