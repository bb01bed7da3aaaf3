package io.dedupq.worker;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.redis.client.Response;
import java.util.List;

/** progress.lua's arguments and reply, the only place that knows their positions. */
public final class ProgressScript {

    private ProgressScript() {
    }

    /** Progress of the execution holding {@code token} on task {@code id}: written only while it owns the task. */
    public record Call(Partition partition, String id, String token, int percent, String note) {

        public ScriptCall script(RedisKeys keys) {
            return new ScriptCall(LuaScript.PROGRESS, List.of(keys.task(partition, id)),
                    List.of(token, Integer.toString(percent), note));
        }
    }

    /** True when written, false when the execution no longer owns the task. */
    public static boolean written(Response reply) {
        return reply.toInteger() == 1;
    }
}
