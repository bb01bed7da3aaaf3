package io.dedupq.worker;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import java.util.List;

/**
 * promote.lua's arguments, the only place that knows their positions. Its reply is a plain
 * count: how many envelopes went to pending.
 */
public final class PromoteScript {

    private PromoteScript() {
    }

    /** Moves up to {@code max} retries that are due, by Redis's clock, from the partition's delayed set to pending. */
    public record Call(Partition partition, int max) {

        public ScriptCall script(RedisKeys keys) {
            return new ScriptCall(LuaScript.PROMOTE, List.of(keys.delayed(partition), keys.pending(partition), keys.levels(partition)),
                    List.of(Integer.toString(max)));
        }
    }
}
