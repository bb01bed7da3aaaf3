package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.ScriptLab;
import io.dedupq.worker.BeatScript;
import org.junit.jupiter.api.Test;

/**
 * beat.lua: a worker's score in a workers set is the Redis server's time when it beat, whatever
 * it was before; nobody else's score moves.
 */
class BeatContractTest {

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final String workers = keys.workers(whole(uniqueId("beat")));
    private final String worker = uniqueId("w");

    private long beat() {
        return lab.eval(new BeatScript.Call(workers, worker).script()).toLong();
    }

    @Test
    void theScoreIsTheServersTimeAndTheReplySaysIt() {
        long before = lab.serverMillis();
        long written = beat();
        long after = lab.serverMillis();

        assertTrue(written >= before && written <= after, before + " <= " + written + " <= " + after);
        assertEquals(written, lab.zscore(workers, worker), "the reply is the score written");
    }

    @Test
    void anOldScoreIsReplacedAndOthersStay() {
        lab.call("ZADD", workers, 1, worker);
        lab.call("ZADD", workers, 2, "other");

        long written = beat();

        assertEquals(written, lab.zscore(workers, worker), "a worker back from a pause is fresh again");
        assertEquals(2, lab.zscore(workers, "other"), "another worker's heartbeat is not touched");
    }
}
