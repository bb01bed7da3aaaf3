package io.dedupq.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqConfig;
import io.dedupq.config.DedupqJson;
import io.dedupq.lock.DistributedLock;
import io.dedupq.queue.EnqueueResult;
import io.dedupq.queue.InvalidTaskException;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.TaskQueue;
import io.dedupq.queue.TaskSubmission;
import io.dedupq.worker.PeriodicLoop;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Moves committed rows of {@code dedupq_outbox} to Redis, on one pod at a time (the pod holding
 * the lock {@code <prefix>:joblock:outbox-relay}, extended on every poll). Each batch is read with
 * {@code FOR UPDATE SKIP LOCKED}, enqueued through {@link TaskQueue} (the normal enqueue script)
 * and deleted in the same transaction once Redis answered; a relay that dies between the two
 * pushes the rows again, and enqueue by id makes that a duplicate. Redis unavailable: the rows
 * stay for the next poll.
 */
@IfBuildProperty(name = SqlSwitch.ENABLED, stringValue = "true")
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final String SELECT = "SELECT seq, task_id, type, payload, priority, task_group, timeout_ms "
            + "FROM dedupq_outbox ORDER BY seq LIMIT ? "
            + "FOR UPDATE SKIP LOCKED";
    private static final String DELETE = "DELETE FROM dedupq_outbox WHERE seq = ANY (?)";

    private final DataSource dataSource;
    private final TaskQueue tasks;
    private final DistributedLock lock;
    private final ObjectMapper mapper;
    private final DedupqConfig.Sql config;
    private final String lockKey;
    private final PeriodicLoop loop = new PeriodicLoop("outbox-relay");
    // written by the loop's thread, read at shutdown
    private volatile Optional<DistributedLock.Lease> lease = Optional.empty();

    public OutboxRelay(DataSource dataSource, TaskQueue tasks, DistributedLock lock, @DedupqJson ObjectMapper mapper,
            DedupqConfig config, RedisKeys keys) {
        this.dataSource = dataSource;
        this.tasks = tasks;
        this.lock = lock;
        this.mapper = mapper;
        this.config = config.sql();
        this.lockKey = keys.jobLock("outbox-relay");
    }

    void onStart(@Observes StartupEvent event) {
        loop.start(config.outboxPollInterval(), this::poll);
    }

    void onStop(@Observes ShutdownEvent event) {
        loop.stop();
        lease.ifPresent(lock::release);
    }

    /** Moves what the outbox holds while this pod holds the relay's lock. */
    private void poll() {
        try {
            if (!holdsLock()) {
                return;
            }
            while (moveBatch() == config.outboxBatchSize()) {
                // a full batch: more may wait
            }
        } catch (SQLException e) {
            LOG.warnf("outbox relay: %s; the rows stay for the next poll", e.getMessage());
        }
    }

    private boolean holdsLock() {
        if (lease.isPresent() && !lock.extend(lease.get(), config.relayLockTtl())) {
            lease = Optional.empty();
        }
        if (lease.isEmpty()) {
            lease = lock.acquire(lockKey, config.relayLockTtl());
        }
        return lease.isPresent();
    }

    /** Moves one batch; returns how many rows it held. */
    int moveBatch() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                List<Long> seqs = new ArrayList<>();
                List<TaskSubmission> submissions = new ArrayList<>();
                read(connection, seqs, submissions);
                if (!seqs.isEmpty()) {
                    push(submissions);
                    try (PreparedStatement delete = connection.prepareStatement(DELETE)) {
                        Array array = connection.createArrayOf("bigint", seqs.toArray());
                        delete.setArray(1, array);
                        delete.executeUpdate();
                    }
                }
                connection.commit();
                return seqs.size();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private void read(Connection connection, List<Long> seqs, List<TaskSubmission> submissions) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(SELECT)) {
            select.setInt(1, config.outboxBatchSize());
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    seqs.add(rows.getLong(1));
                    submissions.add(new TaskSubmission(rows.getString(2), rows.getString(3), tree(rows.getString(4)),
                            rows.getObject(7, Long.class), rows.getObject(5, Integer.class), rows.getString(6)));
                }
            }
        }
    }

    private void push(List<TaskSubmission> submissions) {
        try {
            for (EnqueueResult result : tasks.enqueueAll(submissions)) {
                if (result.conflict()) {
                    LOG.warnf("outbox relay: task %s is already known with another payload; the outbox row is dropped",
                            result.id());
                }
            }
        } catch (InvalidTaskException e) {
            // valid when written; a deployment without its type since: the rows wait for one that has it
            throw new IllegalStateException("outbox rows refused by validation: " + e.getMessage(), e);
        }
    }

    private JsonNode tree(String json) {
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable outbox payload", e);
        }
    }
}
