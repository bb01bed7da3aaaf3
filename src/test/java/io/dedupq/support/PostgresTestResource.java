package io.dedupq.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;

/**
 * Starts a private PostgreSQL ({@link PostgresProcess}) for the test application, points the
 * default datasource at it and activates it, with dedupq's migration and the tests' tables
 * applied ({@link SqlSchema}); stopped by pid afterwards.
 */
public class PostgresTestResource implements QuarkusTestResourceLifecycleManager {

    private static volatile PostgresProcess postgres;

    public static PostgresProcess postgres() {
        return postgres;
    }

    @Override
    public Map<String, String> start() {
        postgres = PostgresProcess.start(Path.of("target", "test-postgres", UUID.randomUUID().toString()));
        try {
            SqlSchema.apply();
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("cannot apply the schema: " + e.getMessage(), e);
        }
        return Map.of("quarkus.datasource.active", "true",
                "quarkus.datasource.jdbc.url", postgres.jdbcUrl(),
                "quarkus.datasource.username", PostgresProcess.USER);
    }

    @Override
    public void stop() {
        if (postgres != null) {
            postgres.stop();
        }
    }
}
