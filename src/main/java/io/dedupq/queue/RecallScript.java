package io.dedupq.queue;

import io.vertx.mutiny.redis.client.Response;
import java.util.List;
import java.util.Optional;

/**
 * recall.lua's arguments and reply, the only place that knows their positions: what a finished
 * task id's dedup record remembers once its hash is gone.
 */
public final class RecallScript {

    private RecallScript() {
    }

    /** The dedup record of task {@code id} in {@code partition}. */
    public record Call(Partition partition, String id) {

        public ScriptCall script(RedisKeys keys) {
            return new ScriptCall(LuaScript.RECALL, List.of(keys.records(partition)), List.of(keys.base(partition), id));
        }
    }

    /** The outcome the record holds, empty when the id is not remembered. */
    public static Optional<String> read(Response reply) {
        return reply == null ? Optional.empty() : Optional.of(RecordMark.outcome(reply.toString()));
    }
}
