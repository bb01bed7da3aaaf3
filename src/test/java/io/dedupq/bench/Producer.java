package io.dedupq.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Puts benchmark tasks ({@code noop}, payload {@code {"lid":n}}) into dedupq the two ways a
 * producer can: {@code POST /api/tasks/batch} on an API pod, or LPUSH of envelopes straight onto
 * the pending list. One call per chunk, each awaited before the next (as the peer's addBulk).
 */
public final class Producer {

    /** How tasks reach dedupq. */
    public enum Mode {
        HTTP("http batch"), LPUSH("LPUSH envelopes");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    /** What the producer learned: tasks accepted and duplicates refused at enqueue. */
    public record Sent(long accepted, long refusedDuplicates) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Mode mode;
    private final BenchRedis redis;
    private final String pendingKey;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI batchUri;
    private final URI singleUri;
    /** With more than 0, task {@code lid} belongs to group {@code g<lid % groups>}; 0: no groups. */
    private final int groups;
    private int retries;

    /** {@code apiPort} is used in HTTP mode only. */
    public Producer(Mode mode, BenchRedis redis, String pendingKey, int apiPort) {
        this(mode, redis, pendingKey, apiPort, 0);
    }

    /** As {@link #Producer(Mode, BenchRedis, String, int)}, every task in one of {@code groups} groups. */
    public Producer(Mode mode, BenchRedis redis, String pendingKey, int apiPort, int groups) {
        this.groups = groups;
        this.mode = mode;
        this.redis = redis;
        this.pendingKey = pendingKey;
        this.batchUri = URI.create("http://127.0.0.1:" + apiPort + "/api/tasks/batch");
        this.singleUri = URI.create("http://127.0.0.1:" + apiPort + "/api/tasks");
    }

    /** Entries {@code from} (inclusive) to {@code to} of the workload as one call. */
    public Sent send(int[] lids, int from, int to) {
        return send(lids, from, to, "t");
    }

    /** As {@link #send(int[], int, int)}, with task ids {@code <idPrefix><lid>}. */
    public Sent send(int[] lids, int from, int to, String idPrefix) {
        if (mode == Mode.LPUSH) {
            Request push = Request.cmd(Command.LPUSH).arg(pendingKey);
            long now = System.currentTimeMillis();
            for (int i = from; i < to; i++) {
                push.arg(envelope(idPrefix + lids[i], lids[i], now));
            }
            redis.pipeline(java.util.List.of(push));
            return new Sent(to - from, 0);
        }
        StringBuilder body = new StringBuilder("{\"tasks\":[");
        for (int i = from; i < to; i++) {
            body.append(i == from ? "" : ",").append(task(idPrefix + lids[i], lids[i]));
        }
        JsonNode reply = post(batchUri, body.append("]}").toString(), 200);
        if (reply.path("conflicts").asLong() != 0) {
            throw new IllegalStateException("batch answered conflicts: " + reply.path("conflicts"));
        }
        return new Sent(reply.path("accepted").asLong(), reply.path("duplicates").asLong());
    }

    /** One task on its own (the idle pick-up probes). */
    public void sendOne(String id, int lid) {
        if (mode == Mode.LPUSH) {
            redis.send(Command.LPUSH, pendingKey, envelope(id, lid, System.currentTimeMillis()));
        } else {
            post(singleUri, task(id, lid), 202);
        }
    }

    private String task(String id, int lid) {
        return "{\"id\":\"" + id + "\",\"type\":\"noop\",\"payload\":{\"lid\":" + lid + "}" + group(lid) + "}";
    }

    /** The envelope as README documents it for producers that push to Redis themselves. */
    private String envelope(String id, int lid, long now) {
        return "{\"id\":\"" + id + "\",\"type\":\"noop\",\"payload\":{\"lid\":" + lid + "},\"attempt\":0,\"enqueuedAt\":"
                + now + group(lid) + "}";
    }

    /** The task's group field, with its leading comma, or nothing. */
    private String group(int lid) {
        return groups == 0 ? "" : ",\"group\":\"g" + lid % groups + "\"";
    }

    /** 503 answers (Redis slow to answer the API) that were retried with the same ids. */
    public int retries() {
        return retries;
    }

    /** Sends again after a 503, as README tells clients to: with the same ids, which is always safe. */
    private JsonNode post(URI uri, String body, int expected) {
        try {
            HttpResponse<String> response;
            int attempt = 0;
            while ((response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString())).statusCode() == 503 && attempt++ < 20) {
                retries++;
                Thread.sleep(500);
            }
            if (response.statusCode() != expected && !(expected == 202 && response.statusCode() == 200)) {
                throw new IllegalStateException(uri + " answered " + response.statusCode() + ": " + response.body());
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException(uri + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
