package io.dedupq.support;

import io.dedupq.config.RedisProcess;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.RedisOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A scratch redis-server for the Lua scripts' contract tests, without Quarkus: one per test JVM,
 * started on a free port at first use and stopped by pid when the JVM exits. Each call sends a
 * script as EVAL of its source, so a contract test runs whatever source is installed: the
 * script's own, or a mutant that the mutation check put in its place for one run.
 */
public final class ScriptLab {

    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(10);
    private static ScriptLab shared;

    private final Map<LuaScript, String> mutants = new EnumMap<>(LuaScript.class);
    private final RedisProcess server;
    private final RedisConnection connection;
    private final RedisKeys keys;

    private ScriptLab() {
        server = RedisProcess.start(Path.of("target", "test-redis", "scripts-" + UUID.randomUUID()));
        connection = Redis.createClient(Vertx.vertx(), new RedisOptions().setConnectionString(server.url())
                        .setPreferredProtocolVersion(ProtocolVersion.RESP2))
                .connect().await().atMost(REPLY_TIMEOUT);
        keys = new RedisKeys(Configs.dedupq(Map.of()));
        // the JVM's end closes the connection; the server is ours to stop, by its pid
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "script-lab-stop"));
    }

    /** A scratch server of the caller's own, for a test that needs a quiet one (it reads INFO memory). */
    public static ScriptLab own() {
        return new ScriptLab();
    }

    /** The JVM's scratch server, started on first use. */
    public static synchronized ScriptLab shared() {
        if (shared == null) {
            shared = new ScriptLab();
        }
        return shared;
    }

    /** The key layout with the default prefix, as the app builds it. */
    public RedisKeys keys() {
        return keys;
    }

    /** Runs the call's script (or its installed mutant), as the app would send it. */
    public Response eval(ScriptCall call) {
        return eval(call.script(), call.keys(), call.args());
    }

    /** Runs {@code script} (or its installed mutant) with these keys and arguments. */
    public Response eval(LuaScript script, List<String> scriptKeys, List<String> args) {
        Request eval = Request.cmd(Command.EVAL).arg(source(script)).arg(scriptKeys.size());
        scriptKeys.forEach(eval::arg);
        args.forEach(eval::arg);
        return send(eval);
    }

    /** The source a call of {@code script} runs now. */
    public synchronized String source(LuaScript script) {
        return mutants.getOrDefault(script, script.source());
    }

    /** Until {@link #restore}, every call of {@code script} runs {@code source} instead. */
    public synchronized void install(LuaScript script, String source) {
        mutants.put(script, source);
    }

    public synchronized void restore(LuaScript script) {
        mutants.remove(script);
    }

    /** One plain command, e.g. {@code call("HSET", key, "status", "queued")}. */
    public Response call(String command, Object... args) {
        Request request = Request.cmd(Command.create(command));
        for (Object arg : args) {
            request.arg(String.valueOf(arg));
        }
        return send(request);
    }

    /**
     * Subscribes a connection of its own to {@code channel}; the messages published on it from
     * then on arrive in the returned queue. The connection lives as long as the JVM.
     */
    public BlockingQueue<String> subscribe(String channel) {
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        RedisConnection subscriber = Redis.createClient(Vertx.vertx(), new RedisOptions().setConnectionString(server.url())
                        .setPreferredProtocolVersion(ProtocolVersion.RESP2))
                .connect().await().atMost(REPLY_TIMEOUT);
        subscriber.handler(push -> {
            if (push.size() == 3 && "message".equals(push.get(0).toString())) {
                heard.add(push.get(2).toString());
            }
        });
        subscriber.send(Request.cmd(Command.SUBSCRIBE).arg(channel)).await().atMost(REPLY_TIMEOUT);
        return heard;
    }

    /** The Redis server's time (ms): the clock the scripts decide by. */
    public long serverMillis() {
        Response time = call("TIME");
        return time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
    }

    public String get(String key) {
        return text(call("GET", key));
    }

    public boolean exists(String key) {
        return call("EXISTS", key).toLong() == 1;
    }

    /** Milliseconds left; -1 without a TTL, -2 when the key is gone. */
    public long pttl(String key) {
        return call("PTTL", key).toLong();
    }

    public String hget(String key, String field) {
        return text(call("HGET", key, field));
    }

    public Map<String, String> hgetall(String key) {
        Map<String, String> fields = new LinkedHashMap<>();
        List<String> flat = texts(call("HGETALL", key));
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(flat.get(i), flat.get(i + 1));
        }
        return fields;
    }

    /** The list from left (LPUSH end) to right (the end workers take from). */
    public List<String> lrange(String key) {
        return texts(call("LRANGE", key, 0, -1));
    }

    /** Score of {@code member}, or null. */
    public Double zscore(String key, String member) {
        Response score = call("ZSCORE", key, member);
        return score == null ? null : score.toDouble();
    }

    public List<String> smembers(String key) {
        return texts(call("SMEMBERS", key));
    }

    public List<String> hkeys(String key) {
        return texts(call("HKEYS", key));
    }

    public List<String> zrange(String key) {
        return texts(call("ZRANGE", key, 0, -1));
    }

    public static List<String> texts(Response array) {
        List<String> values = new ArrayList<>();
        if (array != null) {
            array.forEach(value -> values.add(value == null ? null : value.toString()));
        }
        return values;
    }

    private Response send(Request request) {
        return connection.send(request).await().atMost(REPLY_TIMEOUT);
    }

    private static String text(Response value) {
        return value == null ? null : value.toString();
    }
}
