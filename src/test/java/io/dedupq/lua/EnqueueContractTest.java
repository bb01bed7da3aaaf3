package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Envelopes;
import io.dedupq.support.ScriptLab;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * enqueue.lua: each id is accepted once per queue. A known id is a duplicate (same type and
 * payload digest) or a conflict (another one) and is not pushed again. Once the result
 * retention has passed, the done marker alone makes the id a duplicate, answered with its outcome.
 */
class EnqueueContractTest {

    private static final String NOW = "1700000000000";

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final String queue = uniqueId("enq");
    private final Partition partition = whole(queue);

    /** One task to enqueue: id, type, payload digest. */
    private record Task(String id, String type, String digest) {
        String envelope() {
            return Envelopes.flaky(id, type, 0);
        }
    }

    /** enqueue.lua for these tasks, in order; the reply as (code, status) pairs. */
    private List<String> enqueue(Task... tasks) {
        List<String> args = new ArrayList<>(List.of(keys.base(partition), queue, NOW));
        for (Task task : tasks) {
            args.addAll(List.of(task.id(), task.type(), task.digest(), task.envelope()));
        }
        return ScriptLab.texts(lab.eval(LuaScript.ENQUEUE, List.of(keys.pending(partition), keys.stats(partition)), args));
    }

    private Task task(String digest) {
        return new Task(uniqueId("t"), "flaky", digest);
    }

    private String stat(String field) {
        return lab.hget(keys.stats(partition), field);
    }

    @Test
    void aNewIdIsQueuedWithItsTaskHash() {
        Task task = task("d1");

        assertEquals(List.of("1", "queued"), enqueue(task));

        assertEquals(List.of(task.envelope()), lab.lrange(keys.pending(partition)));
        assertEquals(Map.of("id", task.id(), "type", "flaky", "queue", queue, "status", "queued", "digest", "d1",
                "attempt", "0", "attempts", "0", "enqueuedAt", NOW), lab.hgetall(keys.task(partition, task.id())));
        assertEquals("1", stat("enqueued"));
    }

    @Test
    void tasksAreQueuedInOrderForWorkersThatTakeFromTheRight() {
        Task first = task("d1");
        Task second = task("d2");

        assertEquals(List.of("1", "queued", "1", "queued"), enqueue(first, second));

        assertEquals(List.of(second.envelope(), first.envelope()), lab.lrange(keys.pending(partition)),
                "FIFO: the first enqueued is at the right end, where workers take");
        assertEquals("2", stat("enqueued"));
    }

    @Test
    void theSameIdWithTheSamePayloadIsADuplicateAndIsNotPushedAgain() {
        Task task = task("d1");
        enqueue(task);
        lab.call("HSET", keys.task(partition, task.id()), "status", "running");

        assertEquals(List.of("0", "running"), enqueue(task), "a duplicate answers with the task's current status");

        assertEquals(1, lab.lrange(keys.pending(partition)).size(), "one copy, however often it is sent");
        assertEquals("1", stat("enqueued"));
        assertEquals("1", stat("rejected_duplicates"));
    }

    @Test
    void theSameIdTwiceInOneCallIsQueuedOnce() {
        Task task = task("d1");

        assertEquals(List.of("1", "queued", "0", "queued"), enqueue(task, task));
        assertEquals(1, lab.lrange(keys.pending(partition)).size());
    }

    @Test
    void theSameIdWithAnotherPayloadOrTypeIsAConflict() {
        Task task = task("d1");
        enqueue(task);

        assertEquals(List.of("-1", "queued"), enqueue(new Task(task.id(), "flaky", "d2")), "another payload digest");
        assertEquals(List.of("-1", "queued"), enqueue(new Task(task.id(), "slow-retry", "d1")), "another type");
        assertEquals(1, lab.lrange(keys.pending(partition)).size());
        assertEquals("d1", lab.hget(keys.task(partition, task.id()), "digest"), "the first submission stands");
    }

    @Test
    void anIdKnownFromACopyPushedStraightOntoTheListIsADuplicate() {
        Task task = task("d1");
        // claim.lua creates the hash of an LPUSHed copy: no digest
        lab.call("HSET", keys.task(partition, task.id()), "id", task.id(), "type", "flaky", "status", "succeeded");

        assertEquals(List.of("0", "succeeded"), enqueue(task));
        assertEquals(List.of(), lab.lrange(keys.pending(partition)));
    }

    @ParameterizedTest(name = "marker {0} answers {1}")
    @CsvSource({"1, succeeded", "2, failed", "3, dead", "4, cancelled", "succeeded, succeeded"})
    void aDoneMarkerWithoutItsHashIsADuplicateAnsweredWithItsOutcome(String mark, String outcome) {
        Task task = task("d1");
        // the result retention passed: the hash is gone, the marker ("succeeded": written before the codes) stays
        lab.call("SET", keys.done(partition, task.id()), mark, "PX", 60_000);

        assertEquals(List.of("0", outcome), enqueue(new Task(task.id(), "flaky", "another digest")));

        assertEquals(List.of(), lab.lrange(keys.pending(partition)), "nothing is enqueued");
        assertFalse(lab.exists(keys.task(partition, task.id())), "and no hash is made");
        assertEquals(mark, lab.get(keys.done(partition, task.id())), "the marker is left as it was");
        assertEquals("1", stat("rejected_duplicates"));
    }
}
