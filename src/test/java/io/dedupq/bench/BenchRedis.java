package io.dedupq.bench;

import io.dedupq.support.AppJvm;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The load generator's own Redis connections (Vert.x client, blocking helpers): one for
 * commands and pipelines, one for blocking pops, so a BRPOP never holds up the rest.
 */
public final class BenchRedis implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Vertx vertx = Vertx.vertx();
    private final RedisConnection commands;
    private final RedisConnection blocking;

    public BenchRedis(String url) {
        Redis client = Redis.createClient(vertx, new RedisOptions().setConnectionString(url).setMaxPoolSize(4)
                .setMaxPoolWaiting(64));
        this.commands = await(client.connect());
        this.blocking = await(client.connect());
    }

    public Response send(Command command, Object... args) {
        return await(commands.send(request(command, args)));
    }

    /** Sends all requests in one pipelined write; replies in order. */
    public List<Response> pipeline(List<Request> requests) {
        List<Response> replies = new ArrayList<>(requests.size());
        for (int from = 0; from < requests.size(); from += 1000) {
            replies.addAll(await(commands.batch(requests.subList(from, Math.min(requests.size(), from + 1000)))));
        }
        return replies;
    }

    /** BRPOP on the blocking connection; null when nothing came within {@code timeout}. */
    public String brpop(String key, Duration timeout) {
        Response reply = await(blocking.send(request(Command.BRPOP, key, timeout.toMillis() / 1000.0)));
        return reply == null ? null : reply.get(1).toString();
    }

    public static Request request(Command command, Object... args) {
        Request request = Request.cmd(command);
        for (Object arg : args) {
            request.arg(arg.toString());
        }
        return request;
    }

    /** Fields of one INFO section as a map. */
    public Map<String, String> info(String section) {
        Map<String, String> fields = new HashMap<>();
        for (String line : send(Command.INFO, section).toString().split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return fields;
    }

    /**
     * INFO memory's {@code used_memory} (bytes) after MEMORY PURGE and a second to settle; every
     * reading of the memory section, dedupq's and BullMQ's, is this one.
     */
    public long usedMemory() {
        send(Command.MEMORY, "PURGE");
        AppJvm.sleep(1000);
        return Long.parseLong(info("memory").get("used_memory"));
    }

    /** The number of keys, after one SCAN over all of them has deleted those whose expiry passed. */
    public long keysAfterSweep() {
        String cursor = "0";
        do {
            cursor = send(Command.SCAN, cursor, "COUNT", 1000).get(0).toString();
        } while (!cursor.equals("0"));
        return send(Command.DBSIZE).toLong();
    }

    /** CPU seconds the server has used so far (user + sys). */
    public double cpuSeconds() {
        Map<String, String> cpu = info("cpu");
        return Double.parseDouble(cpu.get("used_cpu_user")) + Double.parseDouble(cpu.get("used_cpu_sys"));
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("redis call failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        commands.close();
        blocking.close();
        vertx.close();
    }
}
