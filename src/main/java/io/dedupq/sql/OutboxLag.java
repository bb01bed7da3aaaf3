package io.dedupq.sql;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * How far the outbox relay is behind: the age in ms of the oldest row of {@code dedupq_outbox},
 * 0 when it is empty. Read from the database, so every pod tells the same, relay or not; the
 * gauge {@code dedupq.outbox.lag} (ms) and the {@code Outbox-Lag-Ms} header of GET /api/queues
 * show it.
 */
@IfBuildProperty(name = SqlSwitch.ENABLED, stringValue = "true")
@Startup
@ApplicationScoped
public class OutboxLag {

    private static final String OLDEST = "SELECT COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - min(created_at)) * 1000, 0) "
            + "FROM dedupq_outbox";

    private final DataSource dataSource;

    public OutboxLag(DataSource dataSource, MeterRegistry registry) {
        this.dataSource = dataSource;
        Gauge.builder("dedupq.outbox.lag", this, OutboxLag::gauge).baseUnit("milliseconds")
                .description("age of the oldest task in the outbox, not yet in Redis").register(registry);
    }

    /** The lag in ms; throws when the database does not answer. */
    public long millis() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(OLDEST)) {
            row.next();
            return Math.max(0, Math.round(row.getDouble(1)));
        }
    }

    /** NaN while the database does not answer: no number rather than a wrong one. */
    private double gauge() {
        try {
            return millis();
        } catch (SQLException e) {
            return Double.NaN;
        }
    }
}
