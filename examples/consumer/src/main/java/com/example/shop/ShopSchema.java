package com.example.shop;

import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Creates the tables on the first start: dedupq's migration (shipped in its jar) and the shop's
 * own. An advisory lock keeps pods that start together from racing on them. Once the tables
 * exist nothing runs, so a pod that starts next to live transactions waits on none of their
 * locks. A shop with Flyway or Liquibase would run the same two files from there instead.
 */
@ApplicationScoped
public class ShopSchema {

    private static final long LOCK = 0x5d0b5c4e3aL;
    private static final String[] SCRIPTS = { "db/dedupq-postgresql.sql", "db/shop.sql" };

    private final DataSource dataSource;

    public ShopSchema(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    // before dedupq's outbox relay starts polling its table
    void apply(@Observes @Priority(1) StartupEvent event) throws SQLException, IOException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
            if (missing(statement)) {
                for (String script : SCRIPTS) {
                    statement.execute(read(script));
                }
            }
            connection.commit();
        }
    }

    private static boolean missing(Statement statement) throws SQLException {
        try (ResultSet row = statement.executeQuery("SELECT to_regclass('charges') IS NULL")) {
            row.next();
            return row.getBoolean(1);
        }
    }

    private static String read(String resource) throws IOException {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
