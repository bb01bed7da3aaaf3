package io.dedupq.sql;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqJson;
import io.dedupq.handler.AlreadyApplied;
import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.StaleExecution;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import javax.sql.DataSource;

/**
 * Runs a handler's SQL writes so that the task's effect is committed once, whatever the number
 * of executions: the writes and the row of {@code dedupq_effect} that records them commit in one
 * transaction, and the fencing token of the execution decides between executions of one task.
 * <pre>
 * return fenced.run(ctx, connection -&gt; { ...INSERT the payment...; return receipt; });
 * </pre>
 * Before the work, the execution claims the task's row with its token (committed at once, so a
 * newer execution wins over an older one still running). After the work, in the work's
 * transaction, the outcome is written only where the row still carries this token and no
 * outcome. So: an effect already committed (by any execution) rolls the writes back and throws
 * {@link AlreadyApplied} (the task succeeds with the recorded outcome, a duplicate); a newer token
 * on the row refuses this one with {@link StaleExecution}, its writes rolled back.
 * <p>
 * {@link #run} owns its transaction; {@link #joinTransaction} writes the record in the caller's
 * JTA transaction instead (a {@code @Transactional} handler writing entities with Hibernate ORM
 * or Panache).
 */
@IfBuildProperty(name = SqlSwitch.ENABLED, stringValue = "true")
@ApplicationScoped
public class FencedWrites {

    // the row is claimed by the newest token as long as no outcome is committed
    private static final String CLAIM = "INSERT INTO dedupq_effect (queue, task_id, fencing_token) VALUES (?, ?, ?) "
            + "ON CONFLICT (queue, task_id) DO UPDATE SET fencing_token = EXCLUDED.fencing_token "
            + "WHERE dedupq_effect.fencing_token < EXCLUDED.fencing_token AND dedupq_effect.outcome IS NULL";
    private static final String READ = "SELECT fencing_token, outcome FROM dedupq_effect WHERE queue = ? AND task_id = ?";
    private static final String RECORD = "UPDATE dedupq_effect SET outcome = ?, recorded_at = now() "
            + "WHERE queue = ? AND task_id = ? AND fencing_token = ? AND outcome IS NULL";

    private final DataSource dataSource;
    private final ObjectMapper mapper;
    private final TransactionManager transactions;

    public FencedWrites(DataSource dataSource, @DedupqJson ObjectMapper mapper, TransactionManager transactions) {
        this.dataSource = dataSource;
        this.mapper = mapper;
        this.transactions = transactions;
    }

    /**
     * Runs {@code work} in a transaction of its own and commits it with the task's effect record;
     * returns what {@code work} returned. An exception of {@code work} rolls everything back and
     * is thrown as it is (so the task is retried or fails as usual).
     */
    public <T> T run(ExecutionContext ctx, SqlWork<T> work) throws Exception {
        claim(ctx);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.apply(connection);
                if (record(connection, ctx, mapper.writeValueAsString(result))) {
                    connection.commit();
                    return result;
                }
                connection.rollback();
            } catch (Exception | Error e) {
                connection.rollback();
                throw e;
            }
        }
        RuntimeException refusal = verdict(ctx);
        // the row kept this token and no outcome, yet the update missed it: it cannot be recorded
        throw refusal != null ? refusal : new IllegalStateException("the effect of task " + ctx.taskId() + " was not recorded");
    }

    /**
     * As {@link #run}, inside the caller's active JTA transaction, whose writes (entities of
     * Hibernate ORM / Panache, JDBC on the default datasource) {@code work} makes. The claim is
     * committed first in a transaction of its own, with the caller's suspended meanwhile; the
     * record is written after {@code work} on the connection the datasource enlisted in the
     * caller's transaction, so it commits with the caller's writes or rolls back with them. When
     * the record misses, or {@code work} throws (even a checked exception, which
     * {@code @Transactional} would commit), the caller's transaction is marked rollback-only;
     * then {@link AlreadyApplied} or {@link StaleExecution} is thrown as {@link #run} does, or
     * what {@code work} threw.
     */
    public <T> T joinTransaction(ExecutionContext ctx, Callable<T> work) throws Exception {
        if (transactions.getStatus() != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("joinTransaction needs an active transaction (@Transactional); "
                    + "without one, use run");
        }
        try {
            outsideTheCallersTransaction(() -> {
                claim(ctx);
                return null;
            });
        } catch (RuntimeException refused) {
            transactions.setRollbackOnly();
            throw refused;
        }
        T result;
        boolean recorded;
        try {
            result = work.call();
            try (Connection enlisted = dataSource.getConnection()) {
                recorded = record(enlisted, ctx, mapper.writeValueAsString(result));
            }
        } catch (Exception | Error e) {
            transactions.setRollbackOnly();
            throw e;
        }
        if (recorded) {
            return result;
        }
        transactions.setRollbackOnly();
        RuntimeException refusal = outsideTheCallersTransaction(() -> verdict(ctx));
        throw refusal != null ? refusal : new IllegalStateException("the effect of task " + ctx.taskId() + " was not recorded");
    }

    /** Runs {@code step} on a connection of its own: the caller's transaction suspended, then resumed. */
    private <R> R outsideTheCallersTransaction(Callable<R> step) throws Exception {
        Transaction caller = transactions.suspend();
        try {
            return step.call();
        } finally {
            transactions.resume(caller);
        }
    }

    private void claim(ExecutionContext ctx) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
                claim.setString(1, ctx.queue());
                claim.setString(2, ctx.taskId());
                claim.setLong(3, ctx.fencingToken());
                claim.executeUpdate();
            }
        }
        RuntimeException refusal = verdict(ctx);
        if (refusal != null) {
            throw refusal;
        }
    }

    private boolean record(Connection connection, ExecutionContext ctx, String outcome) throws SQLException {
        try (PreparedStatement record = connection.prepareStatement(RECORD)) {
            record.setString(1, outcome);
            record.setString(2, ctx.queue());
            record.setString(3, ctx.taskId());
            record.setLong(4, ctx.fencingToken());
            return record.executeUpdate() == 1;
        }
    }

    /** What the committed row says of this execution: null when it may write, else why not. */
    private RuntimeException verdict(ExecutionContext ctx) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement read = connection.prepareStatement(READ)) {
            connection.setAutoCommit(true);
            read.setString(1, ctx.queue());
            read.setString(2, ctx.taskId());
            try (ResultSet row = read.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("dedupq_effect lost the row of task " + ctx.taskId());
                }
                long token = row.getLong(1);
                String outcome = row.getString(2);
                if (outcome != null) {
                    return new AlreadyApplied(ctx.taskId(), "null".equals(outcome) ? "" : outcome);
                }
                if (token > ctx.fencingToken()) {
                    return new StaleExecution("a newer execution (fencing token " + token + ") of task " + ctx.taskId()
                            + " owns its SQL effect; this one (" + ctx.fencingToken() + ") wrote nothing");
                }
                return null;
            }
        }
    }
}
