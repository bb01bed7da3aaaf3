package io.dedupq.queue;

import io.vertx.mutiny.redis.client.Response;
import java.util.List;

/** discard.lua's arguments and reply, the only place that knows their positions. */
public final class DiscardScript {

    private DiscardScript() {
    }

    /** Removes {@code deadRecord}, exactly as it is in the dead list, of task {@code id} of {@code partition}. */
    public record Call(Partition partition, String id, String deadRecord) {

        public ScriptCall script(RedisKeys keys) {
            return new ScriptCall(LuaScript.DISCARD, List.of(keys.task(partition, id), keys.dead(partition),
                    keys.stats(partition)), List.of(deadRecord));
        }
    }

    /** The reply: true when the record was removed, false when it was no longer in the dead list. */
    public static boolean removed(Response reply) {
        return reply.toInteger() == 1;
    }
}
