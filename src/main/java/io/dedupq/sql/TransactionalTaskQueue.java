package io.dedupq.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqJson;
import io.dedupq.queue.TaskQueue;
import io.dedupq.queue.TaskSubmission;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Enqueue as part of the caller's database transaction (the transactional outbox): the tasks are
 * validated as {@link TaskQueue} would, then written to {@code dedupq_outbox} on the caller's
 * connection, and reach Redis only when that transaction commits ({@link OutboxRelay} moves them).
 * A rolled-back transaction leaves no task. Ids are fixed here, so the relay pushing a row twice
 * enqueues its task once.
 */
@IfBuildProperty(name = SqlSwitch.ENABLED, stringValue = "true")
@ApplicationScoped
public class TransactionalTaskQueue {

    private static final String INSERT = "INSERT INTO dedupq_outbox (task_id, type, payload, priority, task_group, "
            + "timeout_ms) VALUES (?, ?, ?, ?, ?, ?)";

    private final TaskQueue tasks;
    private final ObjectMapper mapper;

    public TransactionalTaskQueue(TaskQueue tasks, @DedupqJson ObjectMapper mapper) {
        this.tasks = tasks;
        this.mapper = mapper;
    }

    /**
     * Writes one task of {@code type} (payload record or JSON tree) in {@code connection}'s
     * transaction, which the caller commits; returns its id ({@code id}, or a new UUID).
     */
    public String enqueueInTransaction(Connection connection, String id, String type, Object payload) throws SQLException {
        JsonNode tree = payload instanceof JsonNode node ? node : mapper.valueToTree(payload);
        return enqueueAllInTransaction(connection, List.of(new TaskSubmission(id, type, tree))).get(0);
    }

    /**
     * Validates every task first ({@link io.dedupq.queue.InvalidTaskException}, nothing written),
     * then writes them on {@code connection}; returns their ids in order. Each keeps its own
     * priority, group and timeout, as {@link TaskQueue#enqueueAll} would.
     */
    public List<String> enqueueAllInTransaction(Connection connection, List<TaskSubmission> submissions) throws SQLException {
        List<TaskQueue.Prepared> prepared = tasks.prepareAll(submissions);
        List<String> ids = new ArrayList<>(prepared.size());
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            for (int i = 0; i < prepared.size(); i++) {
                insert.setString(1, prepared.get(i).id());
                insert.setString(2, prepared.get(i).type());
                TaskSubmission submission = submissions.get(i);
                insert.setString(3, json(submission.payload()));
                insert.setObject(4, submission.priority(), Types.SMALLINT);
                insert.setString(5, submission.group());
                insert.setObject(6, submission.timeout(), Types.BIGINT);
                insert.addBatch();
                ids.add(prepared.get(i).id());
            }
            insert.executeBatch();
        }
        return ids;
    }

    private String json(JsonNode payload) {
        try {
            return mapper.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a validated payload cannot be written", e);
        }
    }
}
