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
import io.dedupq.support.SqlEffectHandler;
import io.dedupq.support.SqlProfile;
import io.dedupq.support.SqlSchema;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import java.io.IOException;
import java.sql.Connection;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * FencedWrites.joinTransaction against a real PostgreSQL: the record is written in the caller's
 * JTA transaction (as a {@code @Transactional} Hibernate handler's would be; plain JDBC on the
 * enlisted connection here) and commits or rolls back with the caller's writes, while the claim
 * is committed before, on its own. The last test runs a {@code @Transactional} handler through
 * the worker on real Redis.
 */
@QuarkusTest
@TestProfile(SqlProfile.class)
class FencedWritesJtaTest {

    private static final String QUEUE = "sql-effect-jta";

    @Inject
    FencedWrites fenced;

    @Inject
    TransactionManager transactions;

    @Inject
    DataSource dataSource;

    @Inject
    TaskQueue tasks;

    @Test
    void theRecordCommitsWithTheCallersWrites() throws Exception {
        String id = uniqueId("jta-first");
        assertEquals(Map.of("token", 5L), inTransaction(() -> write(id, 5)));
        assertEquals(1, SqlSchema.count("effects", id));
        assertEquals(5, SqlSchema.recordedToken(id));
    }

    @Test
    void theClaimIsCommittedBeforeTheWorkAndTheCallersRollbackTakesTheRecordAlong() throws Exception {
        String id = uniqueId("jta-rollback");
        long[] claimedDuringWork = new long[1];
        assertThrows(IllegalStateException.class, () -> inTransaction(() -> {
            fenced.joinTransaction(ctx(id, 3), () -> {
                insert(id, 3);
                claimedDuringWork[0] = SqlSchema.claimedToken(id); // read on a connection of the test's own
                return "written";
            });
            throw new IllegalStateException("the caller fails after the effect");
        }));
        assertEquals(3, claimedDuringWork[0], "the claim was visible to others while the work ran");
        assertEquals(0, SqlSchema.count("effects", id), "the caller's rollback took the handler's row");
        assertEquals(-1, SqlSchema.recordedToken(id), "and the record");

        inTransaction(() -> write(id, 7));
        assertEquals(1, SqlSchema.count("effects", id), "the retry wrote");
    }

    @Test
    void aDuplicateMarksTheCallersTransactionRollbackOnlyEvenWhenTheCallerCatchesIt() throws Exception {
        String id = uniqueId("jta-duplicate");
        inTransaction(() -> write(id, 5));
        AlreadyApplied[] duplicate = new AlreadyApplied[1];
        assertThrows(RollbackException.class, () -> inTransaction(() -> {
            insert(id, 9); // the caller's own write, before the fenced part
            try {
                write(id, 9);
            } catch (AlreadyApplied e) {
                duplicate[0] = e;
            }
            return null;
        }));
        assertEquals("{\"token\":5}", duplicate[0].outcome());
        assertEquals(1, SqlSchema.count("effects", id), "the caller's write went with the duplicate's");
        assertEquals(5, SqlSchema.recordedToken(id));
    }

    @Test
    void aCheckedExceptionOfTheWorkMarksTheTransactionRollbackOnly() throws Exception {
        // @Transactional commits on a checked exception: the handler's row must not commit without its record
        String id = uniqueId("jta-checked");
        assertThrows(RollbackException.class, () -> inTransaction(() -> {
            try {
                fenced.joinTransaction(ctx(id, 2), () -> {
                    insert(id, 2);
                    throw new IOException("the bank hung up");
                });
            } catch (IOException expected) {
                // as a caller that lets it through uncaught, by the rules of @Transactional, would commit
            }
            return null;
        }));
        assertEquals(0, SqlSchema.count("effects", id));
    }

    @Test
    void anOlderExecutionStillInItsTransactionWhenANewerOneCommitsEndsAsADuplicateAndCannotCommit() throws Exception {
        String id = uniqueId("jta-overlap");
        CountDownLatch olderWorking = new CountDownLatch(1);
        CountDownLatch newerDone = new CountDownLatch(1);
        AlreadyApplied[] refusal = new AlreadyApplied[1];
        CompletableFuture<Object> older = CompletableFuture.supplyAsync(() -> {
            try {
                return inTransaction(() -> {
                    try {
                        return fenced.joinTransaction(ctx(id, 4), () -> {
                            insert(id, 4);
                            olderWorking.countDown();
                            newerDone.await(20, TimeUnit.SECONDS);
                            return "older";
                        });
                    } catch (AlreadyApplied e) {
                        refusal[0] = e; // a caller that swallows it: its transaction must still not commit
                        return "swallowed";
                    }
                });
            } catch (Exception e) {
                return e;
            }
        });
        olderWorking.await(10, TimeUnit.SECONDS);
        inTransaction(() -> write(id, 9));
        newerDone.countDown();

        Object outcome = older.get(20, TimeUnit.SECONDS);
        assertEquals(RollbackException.class, outcome.getClass(), "the older caller's commit is refused: " + outcome);
        assertEquals("{\"token\":9}", refusal[0].outcome(), "the older execution ended as a duplicate of the newer");
        assertEquals(1, SqlSchema.count("effects", id));
        assertEquals(9, SqlSchema.recordedToken(id));
    }

    @Test
    void aNewerClaimMakesAnOlderExecutionStaleBeforeItWrites() throws Exception {
        String id = uniqueId("jta-stale");
        CountDownLatch newerClaimed = new CountDownLatch(1);
        CountDownLatch olderDone = new CountDownLatch(1);
        CompletableFuture<Object> newer = inBackground(id, 9, () -> {
            newerClaimed.countDown();
            olderDone.await(20, TimeUnit.SECONDS);
            insert(id, 9);
            return "newer";
        });
        newerClaimed.await(10, TimeUnit.SECONDS);
        assertThrows(StaleExecution.class, () -> inTransaction(() -> write(id, 4)));
        olderDone.countDown();

        assertEquals("newer", newer.get(20, TimeUnit.SECONDS));
        assertEquals(1, SqlSchema.count("effects", id));
        assertEquals(9, SqlSchema.recordedToken(id));
    }

    @Test
    void withoutATransactionItRefusesAndWritesNothing() throws Exception {
        String id = uniqueId("jta-none");
        assertThrows(IllegalStateException.class, () -> write(id, 1));
        assertEquals(-1, SqlSchema.claimedToken(id));
    }

    @Test
    void aTransactionalHandlerRunByTheWorkerWritesItsEffectOnce() throws Exception {
        String id = uniqueId("jta-worker");
        tasks.enqueue(id, QUEUE, Map.of("sleepMs", 0));
        awaitStatus(id, "succeeded");
        assertEquals(1, SqlSchema.count("effects", id));
        assertEquals(1, SqlSchema.count("dedupq_effect", id));
    }

    /** {@code work} joined to a transaction of its own on another thread: its result, or what it threw. */
    private CompletableFuture<Object> inBackground(String id, long token, Callable<Object> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return inTransaction(() -> fenced.joinTransaction(ctx(id, token), work));
            } catch (Exception e) {
                return e;
            }
        });
    }

    /** begin, {@code work}, commit (RollbackException when marked rollback-only); a rollback when {@code work} throws. */
    private <T> T inTransaction(Callable<T> work) throws Exception {
        transactions.begin();
        try {
            T result = work.call();
            transactions.commit();
            return result;
        } finally {
            if (transactions.getStatus() != Status.STATUS_NO_TRANSACTION) {
                transactions.rollback();
            }
        }
    }

    private Object write(String id, long token) throws Exception {
        return fenced.joinTransaction(ctx(id, token), () -> {
            insert(id, token);
            return Map.of("token", token);
        });
    }

    /** A row of {@code effects} on the datasource's connection: the one enlisted in the current transaction. */
    private Void insert(String id, long token) throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            SqlEffectHandler.insertEffect(connection, ctx(id, token));
        }
        return null;
    }

    private static ExecutionContext ctx(String id, long token) {
        return Contexts.of(id, QUEUE, 0, token);
    }
}
