package io.dedupq.worker;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.Partition;
import io.dedupq.queue.ScriptCall;
import io.dedupq.queue.TaskStatus;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Envelopes;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * claim.lua records an outcome only for the execution that owns the task (its token is in
 * the task hash). An execution that lost the task to a newer one only drops its own copy.
 * Each test uses a fresh queue that no worker consumes.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class CompleteOwnershipTest {

    private static final String LOSER = "worker-old";
    private static final String OWNER = "worker-new";
    private static final String LOSER_TOKEN = LOSER + ":5";
    private static final String OWNER_TOKEN = OWNER + ":9";
    /** Due at once, so that promote.lua (on Redis's clock) moves it on its first call. */
    private static final String DELAY = "0";

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    /** A task that {@code worker} claimed with {@code token}: hash, lock and its copy in processing. */
    private record Running(Partition partition, String id, String envelope) {
    }

    private Running claimedBy(String worker, String token) {
        return claimedBy(whole(uniqueId("complete")), worker, token);
    }

    private Running claimedBy(Partition partition, String worker, String token) {
        String id = uniqueId("task");
        String envelope = Envelopes.flaky(id, 0);
        redis.hset(keys.task(partition, id), "id", id, "type", "flaky", "queue", partition.queue(), "status", "running",
                "attempt", "0", "attempts", "1", "token", token, "worker", worker);
        redis.set(keys.lock(partition, id), token, 60_000);
        redis.lpush(keys.processing(partition, worker), envelope);
        return new Running(partition, id, envelope);
    }

    /** One outcome for claim.lua: whose execution, what happened, and what goes with it. */
    private record Outcome(Running task, String token, String outcome, String detail, String next) {
    }

    private long complete(Running task, String worker, String token, String outcome, String detail, String next) {
        return complete(task.partition(), worker, List.of(new Outcome(task, token, outcome, detail, next))).get(0);
    }

    /** One claim.lua call that records all {@code outcomes} (same partition, same worker) and claims nothing; its reply per outcome. */
    private List<Long> complete(Partition partition, String worker, List<Outcome> outcomes) {
        List<io.dedupq.worker.Outcome> sent = new ArrayList<>();
        for (Outcome o : outcomes) {
            Claim claim = new Claim(o.task().id(), "flaky", o.task().envelope(), o.token(), 0);
            sent.add(new io.dedupq.worker.Outcome(claim, "flaky", 0, TaskStatus.valueOf(o.outcome().toUpperCase(Locale.ROOT)),
                    o.detail(), o.next(), Long.parseLong(DELAY), false));
        }
        ScriptCall call = new ClaimScript.Call(partition, worker, 0, null, 60_000, 10_000, 60_000, 60_000, sent).script(keys);
        return ClaimScript.Reply.read(redis.script(call)).recorded().stream()
                .map(recorded -> switch (recorded) {
                    case RECORDED -> 1L;
                    case LOST -> 0L;
                    case CANCELLED -> 2L;
                }).toList();
    }

    @ParameterizedTest(name = "stale {0} changes nothing")
    @ValueSource(strings = {"succeeded", "retrying", "failed", "dead"})
    void completeWithAStaleTokenOnlyRemovesItsOwnCopy(String outcome) {
        // the old execution's lock expired; a newer one claimed the task and owns it now
        Running task = claimedBy(OWNER, OWNER_TOKEN);
        redis.lpush(keys.processing(task.partition(), LOSER), task.envelope());
        String next = outcome.equals("retrying") ? task.envelope().replace("\"attempt\":0", "\"attempt\":1") : "{}";

        assertEquals(0, complete(task, LOSER, LOSER_TOKEN, outcome, "late outcome", next));

        String taskKey = keys.task(task.partition(), task.id());
        assertEquals("running", redis.hget(taskKey, "status"), "the owner's status stands");
        assertEquals(OWNER_TOKEN, redis.hget(taskKey, "token"));
        assertEquals("0", redis.hget(taskKey, "attempt"));
        assertNull(redis.hget(taskKey, "lastError"));
        assertEquals(OWNER_TOKEN, redis.get(keys.lock(task.partition(), task.id())), "the owner's lock stands");
        assertFalse(new DedupRecords(keys, task.partition(), redis::hget).exists(task.id()), "no done marker");
        assertFalse(redis.exists(keys.delayed(task.partition())), "no retry scheduled");
        assertFalse(redis.exists(keys.dead(task.partition())), "nothing dead-lettered");
        assertEquals(0, redis.llen(keys.processing(task.partition(), LOSER)), "the stale copy left its processing list");
        assertEquals(1, redis.llen(keys.processing(task.partition(), OWNER)), "the owner's copy is untouched");
        assertEquals("1", redis.hget(keys.stats(task.partition()), "lost_locks"));
    }

    @Test
    void completeByTheOwnerRecordsSuccessAndReleasesTheLock() {
        Running task = claimedBy(OWNER, OWNER_TOKEN);

        assertEquals(1, complete(task, OWNER, OWNER_TOKEN, "succeeded", "{\"ok\":true}", ""));

        String taskKey = keys.task(task.partition(), task.id());
        assertEquals("succeeded", redis.hget(taskKey, "status"));
        assertEquals("{\"ok\":true}", redis.hget(taskKey, "result"));
        assertNull(redis.hget(taskKey, "token"));
        assertEquals("succeeded", new DedupRecords(keys, task.partition(), redis::hget).outcome(task.id()));
        assertTrue(redis.pttl(new DedupRecords(keys, task.partition(), redis::hget).bucket(task.id())) > 0, "the done marker lasts the dedup window only");
        assertFalse(redis.exists(keys.lock(task.partition(), task.id())), "the lock is released");
        assertEquals(0, redis.llen(keys.processing(task.partition(), OWNER)));
        assertEquals("1", redis.hget(keys.stats(task.partition()), "succeeded"));
    }

    @Test
    void completeByTheOwnerSchedulesARetryWithTheNextAttempt() {
        Running task = claimedBy(OWNER, OWNER_TOKEN);
        String next = task.envelope().replace("\"attempt\":0", "\"attempt\":1");

        assertEquals(1, complete(task, OWNER, OWNER_TOKEN, "retrying", "boom", next));

        String taskKey = keys.task(task.partition(), task.id());
        assertEquals("retrying", redis.hget(taskKey, "status"));
        assertEquals("1", redis.hget(taskKey, "attempt"), "older copies are stale from now on");
        assertEquals("boom", redis.hget(taskKey, "lastError"));
        assertEquals((long) redis.zscore(keys.delayed(task.partition()), next),
                Long.parseLong(redis.hget(taskKey, "nextAttemptAt")), "the hash tells when the retry is due");
        assertFalse(redis.exists(keys.lock(task.partition(), task.id())), "the lock is released for the retry");
        assertFalse(new DedupRecords(keys, task.partition(), redis::hget).exists(task.id()), "a retrying task is not done");
        assertEquals(0, redis.llen(keys.processing(task.partition(), OWNER)));
        assertEquals(1, redis.script(new PromoteScript.Call(task.partition(), 10).script(keys)).toLong(),
                "the next attempt waits in delayed until it is due");
        assertEquals(List.of(next), redis.lrange(keys.pending(task.partition())));
    }

    @Test
    void completeByTheOwnerDeadLettersAFailure() {
        Running task = claimedBy(OWNER, OWNER_TOKEN);
        String record = "{\"id\":\"" + task.id() + "\",\"error\":\"refused\"}";

        assertEquals(1, complete(task, OWNER, OWNER_TOKEN, "failed", "refused", record));

        String taskKey = keys.task(task.partition(), task.id());
        assertEquals("failed", redis.hget(taskKey, "status"));
        assertEquals("refused", redis.hget(taskKey, "lastError"));
        assertEquals("failed", new DedupRecords(keys, task.partition(), redis::hget).outcome(task.id()));
        assertEquals(List.of(record), redis.lrange(keys.dead(task.partition())));
        assertFalse(redis.exists(keys.lock(task.partition(), task.id())));
    }

    @ParameterizedTest(name = "{0} sent again after a lost reply")
    @ValueSource(strings = {"succeeded", "retrying", "failed"})
    void anOutcomeSentAgainAfterALostReplyIsRecognisedAndChangesNothing(String outcome) {
        Running task = claimedBy(OWNER, OWNER_TOKEN);
        String next = outcome.equals("retrying") ? task.envelope().replace("\"attempt\":0", "\"attempt\":1") : "{}";
        assertEquals(1, complete(task, OWNER, OWNER_TOKEN, outcome, "first", next));
        String before = redis.hget(keys.task(task.partition(), task.id()), "status");

        assertEquals(1, complete(task, OWNER, OWNER_TOKEN, outcome, "first", next), "the resend is not a lost lock");

        assertEquals(before, redis.hget(keys.task(task.partition(), task.id()), "status"));
        assertNull(redis.hget(keys.stats(task.partition()), "lost_locks"));
        assertEquals("1", redis.hget(keys.stats(task.partition()), outcome.equals("retrying") ? "retried" : outcome),
                "counted once");
    }

    @Test
    void aStaleExecutionLeavesTheCopyOfANewerExecutionOnTheSameWorker() {
        // the worker was presumed dead, its copy requeued, and it claimed the task again itself
        Running task = claimedBy(LOSER, LOSER + ":9");

        assertEquals(0, complete(task, LOSER, LOSER_TOKEN, "succeeded", "", ""));

        assertEquals(List.of(task.envelope()), redis.lrange(keys.processing(task.partition(), LOSER)),
                "the newer execution's copy stays");
        assertEquals("running", redis.hget(keys.task(task.partition(), task.id()), "status"));
        assertEquals(LOSER + ":9", redis.get(keys.lock(task.partition(), task.id())));
    }

    @Test
    void oneCallRecordsAMixedGroupAndJudgesEachOutcomeOnItsOwn() {
        Partition partition = whole(uniqueId("complete"));
        Running ok = claimedBy(partition, OWNER, OWNER + ":1");
        Running retry = claimedBy(partition, OWNER, OWNER + ":2");
        Running dead = claimedBy(partition, OWNER, OWNER + ":3");
        // this one was taken over by a newer execution on another worker; ours is a stale copy
        Running lost = claimedBy(partition, "worker-newer", "worker-newer:7");
        redis.lpush(keys.processing(partition, OWNER), lost.envelope());
        String next = retry.envelope().replace("\"attempt\":0", "\"attempt\":1");
        String record = "{\"id\":\"" + dead.id() + "\",\"error\":\"gone\"}";

        List<Long> replies = complete(partition, OWNER, List.of(
                new Outcome(ok, OWNER + ":1", "succeeded", "{\"n\":1}", ""),
                new Outcome(retry, OWNER + ":2", "retrying", "boom", next),
                new Outcome(lost, OWNER + ":4", "succeeded", "late", ""),
                new Outcome(dead, OWNER + ":3", "dead", "gone", record)));

        assertEquals(List.of(1L, 1L, 0L, 1L), replies, "recorded, recorded, lost, recorded");
        assertEquals("succeeded", redis.hget(keys.task(partition, ok.id()), "status"));
        assertEquals("{\"n\":1}", redis.hget(keys.task(partition, ok.id()), "result"));
        assertEquals("succeeded", new DedupRecords(keys, partition, redis::hget).outcome(ok.id()));
        assertEquals("retrying", redis.hget(keys.task(partition, retry.id()), "status"));
        assertFalse(new DedupRecords(keys, partition, redis::hget).exists(retry.id()), "a retrying task is not done");
        assertEquals("dead", redis.hget(keys.task(partition, dead.id()), "status"));
        assertEquals(List.of(record), redis.lrange(keys.dead(partition)));
        assertEquals("running", redis.hget(keys.task(partition, lost.id()), "status"), "the newer owner's status stands");
        assertEquals("worker-newer:7", redis.get(keys.lock(partition, lost.id())), "the newer owner's lock stands");
        for (Running task : List.of(ok, retry, dead)) {
            assertFalse(redis.exists(keys.lock(partition, task.id())), "released: " + task.id());
        }
        assertEquals(0, redis.llen(keys.processing(partition, OWNER)), "every copy of ours left the processing list");
        assertEquals(1, redis.llen(keys.processing(partition, "worker-newer")), "the newer owner's copy is untouched");
        String stats = keys.stats(partition);
        assertEquals(List.of("1", "1", "1", "1"), List.of(redis.hget(stats, "succeeded"), redis.hget(stats, "retried"),
                redis.hget(stats, "dead"), redis.hget(stats, "lost_locks")), "each outcome counted once");
    }

    @Test
    void aGroupSentAgainAfterALostReplyAnswersAsBeforeAndCountsNothingTwice() {
        Partition partition = whole(uniqueId("complete"));
        Running first = claimedBy(partition, OWNER, OWNER + ":1");
        Running second = claimedBy(partition, OWNER, OWNER + ":2");
        List<Outcome> group = List.of(new Outcome(first, OWNER + ":1", "succeeded", "", ""),
                new Outcome(second, OWNER + ":2", "failed", "no", "{}"));
        assertEquals(List.of(1L, 1L), complete(partition, OWNER, group));

        assertEquals(List.of(1L, 1L), complete(partition, OWNER, group), "the resend is recognised, not a lost lock");

        assertEquals("1", redis.hget(keys.stats(partition), "succeeded"));
        assertEquals("1", redis.hget(keys.stats(partition), "failed"));
        assertNull(redis.hget(keys.stats(partition), "lost_locks"));
        assertEquals(1, redis.llen(keys.dead(partition)), "dead-lettered once");
    }
}
