package io.dedupq.queue;

import java.net.ConnectException;

/** Redis's error replies, and failures to connect, reach us as an exception or one of its causes. */
final class RedisReplies {

    /** Redis at maxmemory under noeviction, refusing a command that may grow it. */
    static final String OOM = "OOM command not allowed";
    /** A master whose min-replicas-to-write is not met, refusing a write. */
    static final String NO_REPLICAS = "NOREPLICAS";
    /** A script SHA the node has not cached (a single reply starts with it; a pipeline's reads "ERR [i] NOSCRIPT ..."). */
    static final String NO_SCRIPT = "NOSCRIPT No matching script";

    private RedisReplies() {
    }

    /** The connection failure behind {@code e} (refused, or timed out: Netty's ConnectTimeoutException), or null. */
    static ConnectException connectFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException failure) {
                return failure;
            }
        }
        return null;
    }

    /** True when {@code e} or one of its causes carries Redis's {@code error} reply. */
    static boolean say(Throwable e, String error) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(error)) {
                return true;
            }
        }
        return false;
    }
}
