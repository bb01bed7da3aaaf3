package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.DedupqConfig.QueueConfig;
import io.dedupq.config.DedupqConfig.QueueConfig.PriorityOrder;
import io.dedupq.queue.CancelScript;
import io.dedupq.queue.EnqueueScript;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RecallScript;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.dedupq.queue.StatusReply;
import io.dedupq.queue.TaskStatus;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Envelopes;
import io.dedupq.support.ScriptLab;
import io.dedupq.worker.Claim;
import io.dedupq.worker.ClaimScript;
import io.dedupq.worker.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What is left of a finished task once its result retention has passed, through the scripts
 * themselves (enqueue.lua, claim.lua, cancel.lua): the hash is gone, the done
 * marker keeps the outcome for the dedup window, a copy on the list is dropped as done, and a
 * resubmission is a duplicate answered with that outcome. And that the retention frees the task's
 * hash, read from INFO memory on a Redis of this test's own.
 */
class DedupRecordContractTest {

    private static final String WORKER = "w1";
    private static final long WINDOW = 60_000;

    private final ScriptLab lab = ScriptLab.shared();

    /** The scripts' way from submission to outcome, for one queue of one lab. */
    private record Pipeline(ScriptLab lab, Partition partition, int buckets) {

        Pipeline(ScriptLab lab, Partition partition) {
            this(lab, partition, QueueConfig.DEFAULT_DEDUP_BUCKETS);
        }

        RedisKeys keys() {
            return lab.keys();
        }

        List<EnqueueScript.Answer> enqueue(List<String> ids, String digest) {
            List<EnqueueScript.Task> tasks = new ArrayList<>();
            for (String id : ids) {
                tasks.add(new EnqueueScript.Task(id, "flaky", digest, Envelopes.flaky(id, 0)));
            }
            ScriptCall call = new EnqueueScript.Call(partition, 1_700_000_000_000L, buckets, WINDOW, tasks).script(keys());
            return EnqueueScript.Reply.read(lab.eval(call), ids.size()).answers();
        }

        /** claim.lua for up to {@code max} copies: the tasks it claimed. */
        List<Claim> claim(int max) {
            lab.call("ZADD", keys().workers(partition), lab.serverMillis(), WORKER);
            return call(max, List.of(), WINDOW).claims();
        }

        void complete(List<Claim> claimed, String outcome, long retention) {
            List<Outcome> outcomes = new ArrayList<>();
            for (Claim c : claimed) {
                boolean ok = outcome.equals("succeeded");
                outcomes.add(new Outcome(c, "flaky", 0, TaskStatus.valueOf(outcome.toUpperCase(Locale.ROOT)),
                        ok ? "{\"charged\":true}" : "gave up", ok ? "" : "{\"id\":\"" + c.id() + "\"}", 0, false));
            }
            call(0, outcomes, retention);
        }

        private ClaimScript.Reply call(int max, List<Outcome> outcomes, long retention) {
            ScriptCall call = new ClaimScript.Call(partition, WORKER, max, null, 30_000, 10_000, WINDOW, retention,
                    buckets, outcomes, null, 0, PriorityOrder.STRICT, null).script(keys());
            return ClaimScript.Reply.read(lab.eval(LuaScript.CLAIM, call.keys(), call.args()));
        }

        /** Enqueued, claimed and finished with {@code outcome}, in calls of 100 tasks. */
        void finish(List<String> ids, String outcome, long retention) {
            for (int from = 0; from < ids.size(); from += 100) {
                List<String> batch = ids.subList(from, Math.min(ids.size(), from + 100));
                enqueue(batch, "d1");
                complete(claim(batch.size()), outcome, retention);
            }
        }
    }

    private final Pipeline pipeline = new Pipeline(lab, whole(uniqueId("record")));
    private final RedisKeys keys = lab.keys();
    private final DedupRecords records = new DedupRecords(keys, pipeline.partition(), lab::hget);

    private static EnqueueScript.Answer duplicate(String outcome) {
        return new EnqueueScript.Answer(EnqueueScript.Verdict.DUPLICATE, outcome);
    }

    private void awaitHashGone(String id) {
        await().atMost(Duration.ofSeconds(5)).until(() -> !lab.exists(keys.task(pipeline.partition(), id)));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"succeeded", "failed", "dead"})
    void afterTheRetentionOnlyTheOutcomeIsLeftAndStillTurnsDuplicatesAway(String outcome) {
        String id = uniqueId("t");
        pipeline.finish(List.of(id), outcome, 50);

        awaitHashGone(id);

        Partition partition = pipeline.partition();
        assertEquals(outcome, records.outcome(id), "the dedup record keeps the outcome");
        long left = records.expiresAt(id) - lab.serverMillis();
        assertTrue(left > WINDOW - 10_000 && left <= WINDOW, "for the rest of the dedup window: " + left);
        assertEquals(List.of(duplicate(outcome)), pipeline.enqueue(List.of(id), "d1"), "a resubmission is a duplicate");
        assertEquals(List.of(), lab.lrange(keys.pending(partition)), "and is not enqueued");
        assertFalse(lab.exists(keys.task(partition, id)), "nor does it bring a hash back");
        lab.call("LPUSH", keys.pending(partition), Envelopes.flaky(id, 0));
        assertEquals(List.of(), pipeline.claim(1), "a copy pushed onto the list is dropped as done");
        assertEquals(List.of(), lab.lrange(keys.processing(partition, WORKER)));
        assertEquals("1", lab.hget(keys.stats(partition), "skipped_done"));
    }

    /**
     * The pods send each id's bucket with its enqueue and its outcome; recall.lua and a copy
     * LPUSHed by a producer have the script compute it. Both must name the same bucket.
     */
    @Test
    void theBucketsThePodsComputeAreTheScriptsOwn() {
        List<String> ids = ids(uniqueId("b"), 300);
        pipeline.finish(ids, "succeeded", WINDOW);
        Partition partition = pipeline.partition();
        for (String id : ids) {
            // as the result retention would: a copy of a task without a hash is looked up in the records
            lab.call("DEL", keys.task(partition, id));
            ScriptCall recall = new RecallScript.Call(partition, id).script(keys);
            assertEquals(Optional.of("succeeded"), RecallScript.read(lab.eval(recall)), "recall.lua finds " + id);
        }
        ids.forEach(id -> lab.call("LPUSH", keys.pending(partition), Envelopes.flaky(id, 0)));
        assertEquals(List.of(), pipeline.claim(ids.size()), "every copy pushed onto the list is dropped as done");
        assertEquals(String.valueOf(ids.size()), lab.hget(keys.stats(partition), "skipped_done"));
    }

    @Test
    void aCancelledTaskKeepsItsOutcomeLikeAFinishedOne() {
        String id = uniqueId("t");
        Partition partition = pipeline.partition();
        pipeline.enqueue(List.of(id), "d1");

        StatusReply<CancelScript.Answer> reply = CancelScript.read(
                lab.eval(new CancelScript.Call(partition, id, WINDOW, 50).script(keys)));
        assertEquals(new StatusReply<>(CancelScript.Answer.CANCELLED, "cancelled"), reply);
        awaitHashGone(id);

        assertEquals("cancelled", records.outcome(id));
        assertTrue(records.expiresAt(id) - lab.serverMillis() > WINDOW - 10_000);
        assertEquals(List.of(duplicate("cancelled")), pipeline.enqueue(List.of(id), "d1"));
    }

    /**
     * The retention frees what the window does not need: a task's memory once only its dedup record
     * is left is a small part of what it held with its hash. The bytes themselves are the
     * benchmark's to report (bench/run.sh, section memory).
     */
    @Test
    void aFinishedTaskKeepsOnlyItsSmallDedupRecordOnceItsResultRetentionHasPassed() {
        ScriptLab quiet = ScriptLab.own();
        // as docs/redis-keys.md sizes them: about a sixteenth of the ids of a window (40,001 here)
        Pipeline own = new Pipeline(quiet, whole("payment"), 2048);
        // the scripts cached and the queue's own keys made before the first reading
        own.finish(List.of("warm-up-1"), "succeeded", 1);
        int n = 20_000;

        long before = usedMemory(quiet);
        own.finish(ids("kept", n), "succeeded", 600_000);
        long withHash = (usedMemory(quiet) - before) / n;

        long middle = usedMemory(quiet);
        own.finish(ids("gone", n), "succeeded", 1);
        // besides the record buckets and the kept hashes, the queue's records layout, stats, fence and
        // workers keys stay; each hash expired 1 ms after its task finished, and SCAN deletes the
        // expired keys it passes
        DedupRecords records = new DedupRecords(quiet.keys(), own.partition(), own.buckets(), quiet::hget);
        Set<String> buckets = new HashSet<>();
        Stream.of(List.of("warm-up-1"), ids("kept", n), ids("gone", n)).flatMap(List::stream)
                .forEach(id -> buckets.add(records.bucket(id)));
        long keys = n + buckets.size() + 4;
        await().atMost(Duration.ofSeconds(10)).until(() -> sweep(quiet) == keys);
        long recordOnly = (usedMemory(quiet) - middle) / n;

        // about 480 bytes with the hash; the record shares its key with other ids
        assertTrue(recordOnly * 5 < withHash, "bytes per finished task: " + withHash + " with its hash, "
                + recordOnly + " with its dedup record only");
        assertTrue(records.exists("gone-00000") && records.exists("kept-00000"), "both kinds remembered");
    }

    /** n ids of 10 to 20 characters. */
    private static List<String> ids(String prefix, int n) {
        List<String> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(String.format("%s-%0" + (5 + i % 11) + "d", prefix, i));
        }
        return ids;
    }

    /** The keys left once a SCAN over all of them has deleted those whose expiry passed. */
    private static long sweep(ScriptLab lab) {
        String cursor = "0";
        do {
            cursor = lab.call("SCAN", cursor, "COUNT", 1000).get(0).toString();
        } while (!cursor.equals("0"));
        return lab.call("DBSIZE").toLong();
    }

    private static long usedMemory(ScriptLab lab) {
        lab.call("MEMORY", "PURGE");
        for (String line : lab.call("INFO", "memory").toString().split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()));
            }
        }
        throw new IllegalStateException("INFO memory has no used_memory");
    }
}
