package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.DedupqConfig.QueueConfig;
import io.dedupq.queue.EnqueueScript;
import io.dedupq.queue.EnqueueScript.Answer;
import io.dedupq.queue.EnqueueScript.Verdict;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Envelopes;
import io.dedupq.support.ScriptLab;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * enqueue.lua: each id is accepted once per queue. A known id is a duplicate (same type and
 * payload digest) or a conflict (another one) and is not pushed again. Once the result
 * retention has passed, the done marker alone makes the id a duplicate, answered with its outcome.
 */
class EnqueueContractTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final long WINDOW = 86_400_000;
    private static final Answer QUEUED = new Answer(Verdict.QUEUED, "queued");

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final String queue = uniqueId("enq");
    private final Partition partition = whole(queue);
    private final DedupRecords records = new DedupRecords(keys, partition, lab::hget);

    /** One task to enqueue: id, type, payload digest. */
    private record Task(String id, String type, String digest) {
        String envelope() {
            return Envelopes.flaky(id, type, 0);
        }

        EnqueueScript.Task call() {
            return new EnqueueScript.Task(id, type, digest, envelope());
        }
    }

    /** enqueue.lua for these tasks, in order, through its codec: one answer per task. */
    private List<Answer> enqueue(Task... tasks) {
        List<EnqueueScript.Task> members = new ArrayList<>();
        for (Task task : tasks) {
            members.add(task.call());
        }
        ScriptCall call = new EnqueueScript.Call(partition, NOW, QueueConfig.DEFAULT_DEDUP_BUCKETS, WINDOW, members)
                .script(keys);
        return EnqueueScript.Reply.read(lab.eval(call), tasks.length).answers();
    }

    private static Answer duplicate(String status) {
        return new Answer(Verdict.DUPLICATE, status);
    }

    private static Answer conflict(String status) {
        return new Answer(Verdict.CONFLICT, status);
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

        assertEquals(List.of(QUEUED), enqueue(task));

        assertEquals(List.of(task.envelope()), lab.lrange(keys.pending(partition)));
        assertEquals(Map.of("type", "flaky", "status", "queued", "digest", "d1", "enqueuedAt", Long.toString(NOW)),
                lab.hgetall(keys.task(partition, task.id())),
                "no id, queue, attempt 0 or attempts 0: the key names the first two, and claim.lua reads an absent count as 0");
        assertEquals("1", stat("enqueued"));
    }

    @Test
    void tasksAreQueuedInOrderForWorkersThatTakeFromTheRight() {
        Task first = task("d1");
        Task second = task("d2");

        assertEquals(List.of(QUEUED, QUEUED), enqueue(first, second));

        assertEquals(List.of(second.envelope(), first.envelope()), lab.lrange(keys.pending(partition)),
                "FIFO: the first enqueued is at the right end, where workers take");
        assertEquals("2", stat("enqueued"));
    }

    @Test
    void theSameIdWithTheSamePayloadIsADuplicateAndIsNotPushedAgain() {
        Task task = task("d1");
        enqueue(task);
        lab.call("HSET", keys.task(partition, task.id()), "status", "running");

        assertEquals(List.of(duplicate("running")), enqueue(task), "a duplicate answers with the task's current status");

        assertEquals(1, lab.lrange(keys.pending(partition)).size(), "one copy, however often it is sent");
        assertEquals("1", stat("enqueued"));
        assertEquals("1", stat("rejected_duplicates"));
    }

    @Test
    void theSameIdTwiceInOneCallIsQueuedOnce() {
        Task task = task("d1");

        assertEquals(List.of(QUEUED, duplicate("queued")), enqueue(task, task));
        assertEquals(1, lab.lrange(keys.pending(partition)).size());
    }

    @Test
    void eachTaskOfAMixedCallGetsItsOwnAnswerInItsPlace() {
        Task known = task("d1");
        Task taken = task("d1");
        enqueue(known, taken);
        Task fresh = task("d3");

        assertEquals(List.of(QUEUED, duplicate("queued"), QUEUED, conflict("queued")),
                enqueue(task("d2"), known, fresh, new Task(taken.id(), "flaky", "d9")));

        assertEquals("4", stat("enqueued"));
        assertEquals("2", stat("rejected_duplicates"), "conflicts count as rejected duplicates too");
    }

    @Test
    void eachTaskOfACallOfSeveralTypesKeepsItsOwnType() {
        Task flaky = task("d1");
        Task slow = new Task(uniqueId("t"), "slow-retry", "d2");
        Task dup = new Task(flaky.id(), "slow-retry", "d1");

        assertEquals(List.of(QUEUED, QUEUED, conflict("queued")), enqueue(flaky, slow, dup),
                "the same id and digest with another type is a conflict within one call too");

        assertEquals("flaky", lab.hget(keys.task(partition, flaky.id()), "type"));
        assertEquals("slow-retry", lab.hget(keys.task(partition, slow.id()), "type"));
        assertEquals("d2", lab.hget(keys.task(partition, slow.id()), "digest"));
        assertEquals(List.of(slow.envelope(), flaky.envelope()), lab.lrange(keys.pending(partition)));
    }

    @Test
    void aCallOfThousandsIsQueuedWholeAndInOrder() {
        // more envelopes than one LPUSH of the script takes
        Task[] tasks = IntStream.range(0, 2_500).mapToObj(i -> task("d" + i)).toArray(Task[]::new);

        assertEquals(List.of(QUEUED), enqueue(tasks).stream().distinct().toList());

        List<String> pending = lab.lrange(keys.pending(partition));
        assertEquals(tasks.length, pending.size());
        for (int i = 0; i < tasks.length; i++) {
            assertEquals(tasks[i].envelope(), pending.get(tasks.length - 1 - i), "FIFO, position " + i);
        }
        assertEquals("2500", stat("enqueued"));
    }

    @Test
    void theSameIdWithAnotherPayloadOrTypeIsAConflict() {
        Task task = task("d1");
        enqueue(task);

        assertEquals(List.of(conflict("queued")), enqueue(new Task(task.id(), "flaky", "d2")), "another payload digest");
        assertEquals(List.of(conflict("queued")), enqueue(new Task(task.id(), "slow-retry", "d1")), "another type");
        assertEquals(1, lab.lrange(keys.pending(partition)).size());
        assertEquals("d1", lab.hget(keys.task(partition, task.id()), "digest"), "the first submission stands");
    }

    @Test
    void anIdKnownFromACopyPushedStraightOntoTheListIsADuplicate() {
        Task task = task("d1");
        // claim.lua creates the hash of an LPUSHed copy: no digest
        lab.call("HSET", keys.task(partition, task.id()), "id", task.id(), "type", "flaky", "status", "succeeded");

        assertEquals(List.of(duplicate("succeeded")), enqueue(task));
        assertEquals(List.of(), lab.lrange(keys.pending(partition)));
    }

    @ParameterizedTest(name = "mark {0} answers {1}")
    @CsvSource({"1, succeeded", "2, failed", "3, dead", "4, cancelled"})
    void aDedupRecordWithoutItsHashIsADuplicateAnsweredWithItsOutcome(int mark, String outcome) {
        Task task = task("d1");
        // the result retention passed: the hash is gone, the record stays for the rest of the window
        String value = DedupRecords.value(lab.serverMillis() + 60_000, mark);
        lab.call("HSET", records.bucket(task.id()), task.id(), value);

        assertEquals(List.of(duplicate(outcome)), enqueue(new Task(task.id(), "flaky", "another digest")));

        assertEquals(List.of(), lab.lrange(keys.pending(partition)), "nothing is enqueued");
        assertFalse(lab.exists(keys.task(partition, task.id())), "and no hash is made");
        assertEquals(value, records.value(task.id()), "the record is left as it was");
        assertEquals("1", stat("rejected_duplicates"));
    }

    @Test
    void aDedupRecordPastItsWindowNoLongerCounts() {
        Task task = task("d1");
        lab.call("HSET", records.bucket(task.id()), task.id(), DedupRecords.value(lab.serverMillis() - 1, 1));

        assertEquals(List.of(QUEUED), enqueue(task), "the window is exact, whenever the bucket is pruned");
    }

    /** The pod sends the bucket for its own dedup-buckets; the script looks where the stored layout puts the id. */
    @Test
    void aPodWithAnotherBucketCountFindsRecordsWhereTheStoredLayoutPutsThem() {
        Task task = task("d1");
        lab.call("HSET", keys.records(partition), "buckets", "7", "legacyUntil", "0");
        DedupRecords stored = new DedupRecords(keys, partition, 7, lab::hget);
        lab.call("HSET", stored.bucket(task.id()), task.id(), DedupRecords.value(lab.serverMillis() + 60_000, 1));

        assertEquals(List.of(duplicate("succeeded")), enqueue(task));
    }

    @ParameterizedTest(name = "marker {0} answers {1}")
    @CsvSource({"1, succeeded", "4, cancelled", "succeeded, succeeded"})
    void aMarkerOfAnEarlierVersionCountsForOneWindowOnAQueueItUsed(String mark, String outcome) {
        Task task = task("d1");
        // the queue had a stats hash before its records layout was made: one key per id may remain
        lab.call("HSET", keys.stats(partition), "enqueued", "1");
        lab.call("SET", keys.base(partition) + "done:" + task.id(), mark, "PX", 60_000);

        assertEquals(List.of(duplicate(outcome)), enqueue(new Task(task.id(), "flaky", "another digest")));

        assertEquals(List.of(), lab.lrange(keys.pending(partition)), "nothing is enqueued");
        long legacyUntil = Long.parseLong(lab.hget(keys.records(partition), "legacyUntil"));
        assertTrue(Math.abs(legacyUntil - (lab.serverMillis() + WINDOW)) < 10_000, "looked at for one window: " + legacyUntil);
    }

    @Test
    void aQueueFirstUsedByThisVersionLooksForNoMarkerOfAnEarlierOne() {
        Task task = task("d1");
        lab.call("SET", keys.base(partition) + "done:" + task.id(), "1", "PX", 60_000);

        assertEquals(List.of(QUEUED), enqueue(task));
        assertEquals("0", lab.hget(keys.records(partition), "legacyUntil"));
        assertEquals(String.valueOf(QueueConfig.DEFAULT_DEDUP_BUCKETS), lab.hget(keys.records(partition), "buckets"),
                "the layout is the queue's setting, stored by the first call");
    }
}
