package io.dedupq.bench;

import io.dedupq.support.PostgresProcess;
import io.dedupq.support.SqlSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The PostgreSQL of the benchmark's sql section: a private server (under the run's folder),
 * dedupq's migration and the table bench/app's RowHandler writes, emptied before each cell.
 */
final class BenchDatabase implements AutoCloseable {

    private final PostgresProcess postgres;

    private BenchDatabase(PostgresProcess postgres) {
        this.postgres = postgres;
    }

    static BenchDatabase start(Path dir) throws IOException {
        BenchDatabase db = new BenchDatabase(PostgresProcess.start(dir));
        db.execute(SqlSchema.migration());
        db.execute("CREATE TABLE bench_row (task_id text PRIMARY KEY)");
        return db;
    }

    String jdbcUrl() {
        return postgres.jdbcUrl();
    }

    String user() {
        return PostgresProcess.USER;
    }

    /** Forgets every row and effect record of the cell before. */
    void reset() {
        execute("TRUNCATE bench_row, dedupq_effect, dedupq_outbox");
    }

    /** Rows written for the measured tasks (ids t&lt;n&gt;; warm-up and probe ids start otherwise). */
    long measuredRows() {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM bench_row WHERE task_id LIKE 't%'")) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("counting bench_row failed", e);
        }
    }

    private void execute(String sql) {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL refused: " + sql.lines().findFirst().orElse(sql), e);
        }
    }

    @Override
    public void close() {
        postgres.stop();
    }
}
