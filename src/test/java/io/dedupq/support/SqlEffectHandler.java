package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.dedupq.sql.FencedWrites;
import io.dedupq.sql.SqlSwitch;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;

/**
 * The test-only "sql-effect" type: inserts one row into {@code effects} (no unique key, so a
 * second write would show as a second row) through {@link FencedWrites}, after sleeping
 * {@code sleepMs}.
 */
@IfBuildProperty(name = SqlSwitch.ENABLED, stringValue = "true")
@ApplicationScoped
public class SqlEffectHandler implements TaskHandler<SqlEffectHandler.Payload> {

    public record Payload(long sleepMs) {
    }

    private final FencedWrites fenced;

    public SqlEffectHandler(FencedWrites fenced) {
        this.fenced = fenced;
    }

    @Override
    public String type() {
        return "sql-effect";
    }

    @Override
    public Class<Payload> payloadType() {
        return Payload.class;
    }

    @Override
    public Object handle(Payload payload, ExecutionContext ctx) throws Exception {
        Thread.sleep(payload.sleepMs());
        return fenced.run(ctx, connection -> {
            insertEffect(connection, ctx);
            return Map.of("written", ctx.fencingToken());
        });
    }

    /** The effect of one execution: a row of {@code effects} with its task id and token. */
    public static void insertEffect(Connection connection, ExecutionContext ctx) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO effects (task_id, fencing_token) VALUES (?, ?)")) {
            insert.setString(1, ctx.taskId());
            insert.setLong(2, ctx.fencingToken());
            insert.executeUpdate();
        }
    }
}
