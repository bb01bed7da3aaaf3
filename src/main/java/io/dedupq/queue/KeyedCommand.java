package io.dedupq.queue;

import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;

/**
 * A command for {@link RedisCalls#batch} with the key it touches, which routes it on a Redis
 * Cluster: the pipeline is split by that key's hash slot. The key is the command's first
 * argument; further arguments follow with {@link #arg}.
 */
public final class KeyedCommand {

    private final String key;
    private final Request request;

    private KeyedCommand(String key, Request request) {
        this.key = key;
        this.request = request;
    }

    /** {@code command key}, routed by {@code key}. */
    public static KeyedCommand of(Command command, String key) {
        return new KeyedCommand(key, Request.cmd(command).arg(key));
    }

    /** A command that touches no key (SCRIPT LOAD, say): any node may take it. */
    public static KeyedCommand keyless(Request request) {
        return new KeyedCommand(null, request);
    }

    public KeyedCommand arg(String value) {
        request.arg(value);
        return this;
    }

    public KeyedCommand arg(long value) {
        request.arg(value);
        return this;
    }

    Request request() {
        return request;
    }

    /** The hash slot of the key; keyless commands share slot -1. */
    int slot() {
        return key == null ? -1 : HashSlot.of(key);
    }
}
