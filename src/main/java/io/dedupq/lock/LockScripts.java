package io.dedupq.lock;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.redis.client.Response;
import java.util.List;

/**
 * extend.lua's and release.lua's arguments and reply, the only place that knows their
 * positions: both act on one lock only while it holds the caller's token, and answer alike.
 * Used for the {@link DistributedLock}s and for the task locks the worker's watchdog extends.
 */
public final class LockScripts {

    private LockScripts() {
    }

    /** A new TTL of {@code ttlMillis} for the lock at {@code key}, if it still holds {@code token}. */
    public record Extend(String key, String token, long ttlMillis) {

        public ScriptCall script() {
            return new ScriptCall(LuaScript.EXTEND, List.of(key), List.of(token, Long.toString(ttlMillis)));
        }
    }

    /** Deletes the lock at {@code key}, if it still holds {@code token}. */
    public record Release(String key, String token) {

        public ScriptCall script() {
            return new ScriptCall(LuaScript.RELEASE, List.of(key), List.of(token));
        }
    }

    /**
     * Either script's reply: true when the lock held the token and was extended or released,
     * false when it was gone or held by another token.
     */
    public static boolean held(Response reply) {
        return reply.toInteger() == 1;
    }
}
