package io.dedupq.worker;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.ScriptCall;
import java.util.List;

/**
 * beat.lua's arguments, the only place that knows their positions. Its reply (the score it
 * wrote) is not read: a heartbeat only needs to land.
 */
public final class BeatScript {

    private BeatScript() {
    }

    /**
     * Stamps {@code worker} in the sorted set {@code workers} with the Redis server's time.
     *
     * @param workers a partition's workers set ({@code RedisKeys.workers(partition)}) or the set of all workers
     */
    public record Call(String workers, String worker) {

        public ScriptCall script() {
            return new ScriptCall(LuaScript.BEAT, List.of(workers), List.of(worker));
        }
    }
}
