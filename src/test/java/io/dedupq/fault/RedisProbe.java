package io.dedupq.fault;

import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The test's own connection to the fault suite's Redis: reads keys for the audit and pushes
 * envelopes straight onto a pending list as an outside producer would. Calls are retried while
 * Redis restarts, so a probe never fails a step only because it ran during the outage.
 */
final class RedisProbe implements AutoCloseable {

    private static final Duration RETRY_FOR = Duration.ofSeconds(30);
    /** Matches every queue key of the default prefix, as README's key table lists them. */
    static final String ANY_QUEUE = "{dedupq:*}:";

    private final Vertx vertx = Vertx.vertx();
    private final Redis redis;

    RedisProbe(String url) {
        this.redis = Redis.createClient(vertx, new RedisOptions().setConnectionString(url).setMaxPoolSize(4)
                .setMaxPoolWaiting(256));
    }

    /** A key of one queue, e.g. {@code key("payment", "pending")} is {@code {dedupq:payment}:pending}. */
    static String key(String queue, String suffix) {
        return "{dedupq:" + queue + "}:" + suffix;
    }

    long llen(String key) {
        return send(Request.cmd(Command.LLEN).arg(key)).toLong();
    }

    long zcard(String key) {
        return send(Request.cmd(Command.ZCARD).arg(key)).toLong();
    }

    /** {@code used_memory} of INFO memory, in bytes. */
    long usedMemory() {
        String info = send(Request.cmd(Command.INFO).arg("memory")).toString();
        return info.lines().filter(l -> l.startsWith("used_memory:")).mapToLong(l -> Long.parseLong(l.substring(12).trim()))
                .findFirst().orElse(-1);
    }

    void lpush(String key, String value) {
        send(Request.cmd(Command.LPUSH).arg(key).arg(value));
    }

    /**
     * Pushes {@code count} payments {@code <idPrefix><n>} onto the payment queue's pending list,
     * payment {@code n} in group {@code acct-<n % groups>} (no group with {@code groups} 0). Their
     * account does not exist: each execution is a quick permanent failure, one outcome apiece.
     * Returns their ids in order.
     */
    List<String> pushFailingPayments(String idPrefix, int count, int groups) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = idPrefix + i;
            ids.add(id);
            lpush(key("payment", "pending"), "{\"id\":\"" + id + "\",\"type\":\"payment\",\"payload\":"
                    + "{\"accountId\":\"nobody\",\"amount\":\"1.00\",\"currency\":\"EUR\",\"reference\":\"r\"},"
                    + "\"attempt\":0,\"enqueuedAt\":1" + (groups == 0 ? "" : ",\"group\":\"acct-" + i % groups + "\"") + "}");
        }
        return ids;
    }

    List<String> lrange(String key) {
        return strings(send(Request.cmd(Command.LRANGE).arg(key).arg(0).arg(-1)));
    }

    List<String> zrange(String key) {
        return strings(send(Request.cmd(Command.ZRANGE).arg(key).arg(0).arg(-1)));
    }

    /** Every key matching {@code pattern}, by SCAN (never KEYS). */
    List<String> keys(String pattern) {
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            Response page = send(Request.cmd(Command.SCAN).arg(cursor).arg("MATCH").arg(pattern).arg("COUNT").arg(1000));
            cursor = page.get(0).toString();
            keys.addAll(strings(page.get(1)));
        } while (!cursor.equals("0"));
        return keys;
    }

    /** HGET of one field of many hashes, pipelined; null where the hash or field is missing. */
    List<String> hgetAll(List<String> keys, String field) {
        return pipelined(keys.stream().map(k -> Request.cmd(Command.HGET).arg(k).arg(field)).toList());
    }

    /** Redis's clock (TIME), in ms. */
    long serverMillis() {
        Response time = send(Request.cmd(Command.TIME));
        return Long.parseLong(time.get(0).toString()) * 1000 + Long.parseLong(time.get(1).toString()) / 1000;
    }

    /** The values of a hash (HVALS). */
    List<String> hvals(String key) {
        return strings(send(Request.cmd(Command.HVALS).arg(key)));
    }

    /** PTTL of many keys, pipelined: ms left, -1 for a key without expiry, -2 for a missing one. */
    List<Long> pttlAll(List<String> keys) {
        return pipelined(keys.stream().map(k -> Request.cmd(Command.PTTL).arg(k)).toList()).stream()
                .map(Long::parseLong).toList();
    }

    private List<String> pipelined(List<Request> requests) {
        List<String> values = new ArrayList<>();
        for (int from = 0; from < requests.size(); from += 1000) {
            List<Request> page = requests.subList(from, Math.min(requests.size(), from + 1000));
            for (Response r : retrying(() -> redis.batch(page).toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS))) {
                values.add(r == null ? null : r.toString());
            }
        }
        return values;
    }

    private Response send(Request request) {
        return retrying(() -> redis.send(request).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    private static <T> T retrying(Call<T> call) {
        long deadline = System.nanoTime() + RETRY_FOR.toNanos();
        while (true) {
            try {
                return call.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Redis did not answer the probe for " + RETRY_FOR, e);
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", ie);
                }
            }
        }
    }

    private static List<String> strings(Response list) {
        List<String> values = new ArrayList<>();
        if (list != null) {
            list.forEach(r -> values.add(r.toString()));
        }
        return values;
    }

    @Override
    public void close() {
        redis.close();
        vertx.close();
    }
}
