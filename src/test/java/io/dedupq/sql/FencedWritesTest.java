package io.dedupq.sql;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dedupq.handler.AlreadyApplied;
import io.dedupq.handler.ExecutionContext;
import io.dedupq.support.Contexts;
import io.dedupq.handler.StaleExecution;
import io.dedupq.queue.TaskQueue;
import io.dedupq.support.SqlProfile;
import io.dedupq.support.SqlSchema;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * FencedWrites against a real PostgreSQL: the effect of a task commits once, with its record,
 * whatever the order and overlap of its executions' fencing tokens. The last test runs the
 * "sql-effect" handler through the worker on real Redis.
 */
@QuarkusTest
@TestProfile(SqlProfile.class)
class FencedWritesTest {

    private static final String QUEUE = "sql-effect";

    @Inject
    FencedWrites fenced;

    @Inject
    TaskQueue tasks;

    @Test
    void firstExecutionCommitsItsRowsWithTheRecord() throws Exception {
        String id = uniqueId("first");
        assertEquals(Map.of("token", 5L), write(id, 5));
        assertEquals(1, SqlSchema.count("effects", id));
        assertEquals(5, SqlSchema.recordedToken(id));
    }

    @Test
    void theSameTokenAgainRollsBackAndEndsAsADuplicateWithTheRecordedOutcome() throws Exception {
        String id = uniqueId("equal");
        write(id, 5);
        AlreadyApplied duplicate = assertThrows(AlreadyApplied.class, () -> write(id, 5));
        assertEquals("{\"token\":5}", duplicate.outcome());
        assertEquals(1, SqlSchema.count("effects", id));
    }

    @Test
    void anOlderTokenAfterANewerOneCommittedWritesNothing() throws Exception {
        String id = uniqueId("older-late");
        write(id, 9);
        assertThrows(AlreadyApplied.class, () -> write(id, 4));
        assertEquals(1, SqlSchema.count("effects", id));
        assertEquals(9, SqlSchema.recordedToken(id), "the record stays the newer execution's");
    }

    @Test
    void aNewerTokenAfterAnOlderOneCommittedDoesNotWriteTheEffectAgain() throws Exception {
        // the older execution committed, then its worker died before Redis heard of it: the retry is a duplicate
        String id = uniqueId("newer-late");
        write(id, 4);
        assertThrows(AlreadyApplied.class, () -> write(id, 9));
        assertEquals(1, SqlSchema.count("effects", id));
        assertEquals(4, SqlSchema.recordedToken(id));
    }

    @Test
    void anOlderExecutionStillRunningWhenANewerOneClaimsIsRefusedAndTheNewerWins() throws Exception {
        String id = uniqueId("overlap");
        CountDownLatch olderWorking = new CountDownLatch(1);
        CountDownLatch newerDone = new CountDownLatch(1);
        CompletableFuture<Object> older = inBackground(id, 4, connection -> {
            insert(connection, id, 4);
            olderWorking.countDown();
            // paused past its lock TTL: a newer execution claims and commits meanwhile
            newerDone.await(20, TimeUnit.SECONDS);
            return "older";
        }, () -> { });
        olderWorking.await(10, TimeUnit.SECONDS);
        write(id, 9);
        newerDone.countDown();

        Object outcome = older.get(20, TimeUnit.SECONDS);
        assertEquals(AlreadyApplied.class, outcome.getClass(), "the older execution ends as a duplicate: " + outcome);
        assertEquals(1, SqlSchema.count("effects", id));
        assertEquals(9, SqlSchema.recordedToken(id));
    }

    @Test
    void anOlderExecutionFinishingWhileTheNewerOneStillWorksIsRefusedAsStale() throws Exception {
        String id = uniqueId("stale");
        CountDownLatch newerWorking = new CountDownLatch(1);
        CountDownLatch olderDone = new CountDownLatch(1);
        CountDownLatch olderClaimed = new CountDownLatch(1);
        CompletableFuture<Object> older = inBackground(id, 4, connection -> {
            olderClaimed.countDown();
            newerWorking.await(20, TimeUnit.SECONDS);
            insert(connection, id, 4);
            return "older";
        }, olderDone::countDown);
        olderClaimed.await(10, TimeUnit.SECONDS);
        Object newer = fenced.run(ctx(id, 9), connection -> {
            newerWorking.countDown();
            olderDone.await(20, TimeUnit.SECONDS);
            insert(connection, id, 9);
            return "newer";
        });

        assertEquals(StaleExecution.class, older.get(20, TimeUnit.SECONDS).getClass());
        assertEquals("newer", newer);
        assertEquals(1, SqlSchema.count("effects", id));
        assertEquals(9, SqlSchema.recordedToken(id));
    }

    @Test
    void aFailingHandlerLeavesNothingAndItsRetryWrites() throws Exception {
        String id = uniqueId("fails");
        assertThrows(IllegalStateException.class, () -> fenced.run(ctx(id, 3), connection -> {
            insert(connection, id, 3);
            throw new IllegalStateException("the bank said no, try later");
        }));
        assertEquals(0, SqlSchema.count("effects", id), "the handler's row rolled back");
        assertEquals(-1, SqlSchema.recordedToken(id));

        write(id, 7);
        assertEquals(1, SqlSchema.count("effects", id));
    }

    @Test
    void aTaskRunByTheWorkerWritesItsEffectOnceAndAResubmissionAddsNothing() throws Exception {
        String id = uniqueId("worker");
        tasks.enqueue(id, QUEUE, Map.of("sleepMs", 0));
        awaitStatus(id, "succeeded");
        assertEquals(1, SqlSchema.count("effects", id));
        assertEquals(1, SqlSchema.count("dedupq_effect", id));
    }

    /** Runs {@code work} fenced on another thread: its result, or what it threw; then {@code after}. */
    private CompletableFuture<Object> inBackground(String id, long token, SqlWork<Object> work, Runnable after) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return fenced.run(ctx(id, token), work);
            } catch (Exception e) {
                return e;
            } finally {
                after.run();
            }
        });
    }

    private Object write(String id, long token) throws Exception {
        return fenced.run(ctx(id, token), connection -> {
            insert(connection, id, token);
            return Map.of("token", token);
        });
    }

    private static ExecutionContext ctx(String id, long token) {
        return Contexts.of(id, QUEUE, 0, token);
    }

    private static void insert(Connection connection, String id, long token) throws Exception {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO effects (task_id, fencing_token) VALUES (?, ?)")) {
            insert.setString(1, id);
            insert.setLong(2, token);
            insert.executeUpdate();
        }
    }
}
