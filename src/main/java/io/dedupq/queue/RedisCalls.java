package io.dedupq.queue;

import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Blocking access to Redis for callers that run on worker threads, and script calls by SHA.
 * After a Redis restart the script cache is empty: a NOSCRIPT reply loads the scripts and the
 * call is sent once more. Every failure surfaces as {@link StoreUnavailableException}.
 */
@ApplicationScoped
public class RedisCalls {

    /** Longest wait for a reply to a non-blocking command before the call fails. */
    public static final Duration REPLY_TIMEOUT = Duration.ofSeconds(5);

    private final Redis redis;

    public RedisCalls(Redis redis) {
        this.redis = redis;
    }

    public Response send(Request request) {
        return send(request, REPLY_TIMEOUT);
    }

    public Response send(Request request, Duration timeout) {
        try {
            return redis.send(request).await().atMost(timeout);
        } catch (RuntimeException e) {
            throw new StoreUnavailableException(e);
        }
    }

    /** Sends the requests in one pipelined write; replies come back in order. */
    public List<Response> batch(List<Request> requests) {
        try {
            return redis.batch(requests).await().atMost(REPLY_TIMEOUT);
        } catch (RuntimeException e) {
            throw new StoreUnavailableException(e);
        }
    }

    public Response script(LuaScript script, List<String> keys, List<String> args) {
        try {
            return send(scriptRequest(script, keys, args));
        } catch (RuntimeException e) {
            if (!isNoScript(e)) {
                throw e;
            }
            loadScripts();
            return send(scriptRequest(script, keys, args));
        }
    }

    /** Several script calls pipelined; only for calls that are safe to resend as a whole. */
    public List<Response> scripts(List<Request> scriptRequests) {
        try {
            return batch(scriptRequests);
        } catch (RuntimeException e) {
            if (!isNoScript(e)) {
                throw e;
            }
            loadScripts();
            return batch(scriptRequests);
        }
    }

    public static Request scriptRequest(LuaScript script, List<String> keys, List<String> args) {
        Request request = Request.cmd(Command.EVALSHA).arg(script.sha()).arg(keys.size());
        keys.forEach(request::arg);
        args.forEach(request::arg);
        return request;
    }

    /** Loads every script into Redis's script cache. */
    public void loadScripts() {
        List<Request> loads = new ArrayList<>();
        for (LuaScript script : LuaScript.values()) {
            loads.add(Request.cmd(Command.SCRIPT).arg("LOAD").arg(script.source()));
        }
        batch(loads);
    }

    /** A single call fails with "NOSCRIPT ..."; a pipelined one with "ERR [i] NOSCRIPT ...". */
    private static boolean isNoScript(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }
}
