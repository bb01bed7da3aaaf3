package io.dedupq.bench.app;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.dedupq.sql.FencedWrites;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The benchmark's SQL handler (the application built with -Psql): each task inserts one row into
 * {@code bench_row}, through {@link FencedWrites} when {@code bench.sql.fenced=true}, else in a
 * plain transaction of its own, so the two runs differ only in the fencing. It takes the no-op
 * handler's type and leaves the same evidence of each run, so the benchmark's cell counts
 * executions as it does for the no-op handler.
 */
@IfBuildProperty(name = "dedupq.sql.enabled", stringValue = "true")
@ApplicationScoped
public class RowHandler implements TaskHandler<NoopPayload> {

    private static final String INSERT = "INSERT INTO bench_row (task_id) VALUES (?)";

    private final DataSource dataSource;
    private final FencedWrites fenced;
    private final RunRecords runs;
    private final boolean fencing;

    public RowHandler(DataSource dataSource, FencedWrites fenced, RunRecords runs,
            @ConfigProperty(name = "bench.sql.fenced", defaultValue = "true") boolean fencing) {
        this.dataSource = dataSource;
        this.fenced = fenced;
        this.runs = runs;
        this.fencing = fencing;
    }

    @Override
    public String type() {
        return "noop";
    }

    @Override
    public Class<NoopPayload> payloadType() {
        return NoopPayload.class;
    }

    @Override
    public Object handle(NoopPayload payload, ExecutionContext ctx) throws Exception {
        if (fencing) {
            fenced.run(ctx, connection -> insert(connection, ctx.taskId()));
        } else {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(false);
                insert(connection, ctx.taskId());
                connection.commit();
            }
        }
        runs.add(ctx.queue(), ctx.taskId());
        return null;
    }

    private static Integer insert(Connection connection, String taskId) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, taskId);
            return insert.executeUpdate();
        }
    }
}
