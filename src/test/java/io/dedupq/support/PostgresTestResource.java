package io.dedupq.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * Starts a private PostgreSQL ({@link PostgresProcess}) for the test application, points the
 * default datasource at it and activates it; stopped by pid afterwards.
 */
public class PostgresTestResource implements QuarkusTestResourceLifecycleManager {

    private static volatile PostgresProcess postgres;

    public static PostgresProcess postgres() {
        return postgres;
    }

    @Override
    public Map<String, String> start() {
        postgres = PostgresProcess.start(Path.of("target", "test-postgres", UUID.randomUUID().toString()));
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
