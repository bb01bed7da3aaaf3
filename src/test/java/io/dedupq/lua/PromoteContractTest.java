package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.ScriptLab;
import io.dedupq.worker.PromoteScript;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * promote.lua: retries whose due time has come by the Redis server's clock move from delayed to
 * pending, the earliest due first in line, at most the given number per call; the others wait.
 */
class PromoteContractTest {

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final Partition partition = whole(uniqueId("promote"));
    private final long now = lab.serverMillis();

    private long promote(int max) {
        return lab.eval(new PromoteScript.Call(partition, max).script(keys)).toLong();
    }

    private void delayed(String envelope, long dueAt) {
        lab.call("ZADD", keys.delayed(partition), dueAt, envelope);
    }

    @Test
    void whatIsDueMovesAndTheRestWaits() {
        delayed("due", now - 1_000);
        delayed("later", now + 60_000);

        assertEquals(1, promote(10), "the reply counts what moved");

        assertEquals(List.of("due"), lab.lrange(keys.pending(partition)));
        assertEquals(List.of("later"), lab.zrange(keys.delayed(partition)), "not due by Redis's clock: it waits");
    }

    @Test
    void atMostTheLimitMovesTheEarliestFirstInLine() {
        delayed("third", now - 1_000);
        delayed("first", now - 3_000);
        delayed("second", now - 2_000);

        assertEquals(2, promote(2));

        // workers take from the right: the earliest due runs first
        assertEquals(List.of("second", "first"), lab.lrange(keys.pending(partition)));
        assertEquals(List.of("third"), lab.zrange(keys.delayed(partition)), "the rest waits for the next call");
    }

    @Test
    void nothingDueMovesNothing() {
        delayed("later", now + 60_000);

        assertEquals(0, promote(10));
        assertEquals(List.of(), lab.lrange(keys.pending(partition)));
    }
}
