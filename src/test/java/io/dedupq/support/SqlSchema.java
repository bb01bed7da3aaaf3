package io.dedupq.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Applies dedupq's migration and the tests' own table to the test PostgreSQL, and counts rows in it. */
public final class SqlSchema {

    private SqlSchema() {
    }

    /** dedupq's documented migration (db/dedupq-postgresql.sql, as shipped) plus the tests' {@code effects} and {@code orders}. */
    public static void apply() throws SQLException, IOException {
        try (Connection connection = PostgresTestResource.postgres().connect(); Statement statement = connection.createStatement()) {
            statement.execute(migration());
            statement.execute("CREATE TABLE IF NOT EXISTS effects (task_id text NOT NULL, fencing_token bigint NOT NULL)");
            statement.execute("CREATE TABLE IF NOT EXISTS orders (task_id text PRIMARY KEY)");
        }
    }

    /** dedupq's migration as the jar ships it ({@code db/dedupq-postgresql.sql}). */
    public static String migration() throws IOException {
        try (InputStream in = SqlSchema.class.getClassLoader().getResourceAsStream("db/dedupq-postgresql.sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Rows of {@code table} whose {@code task_id} is {@code taskId}. */
    public static long count(String table, String taskId) throws SQLException {
        try (Connection connection = PostgresTestResource.postgres().connect();
                PreparedStatement count = connection.prepareStatement("SELECT count(*) FROM " + table + " WHERE task_id = ?")) {
            count.setString(1, taskId);
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    /** The fencing token recorded for {@code taskId} in dedupq_effect, -1 without a row. */
    public static long recordedToken(String taskId) throws SQLException {
        try (Connection connection = PostgresTestResource.postgres().connect();
                PreparedStatement read = connection.prepareStatement(
                        "SELECT fencing_token FROM dedupq_effect WHERE task_id = ? AND outcome IS NOT NULL")) {
            read.setString(1, taskId);
            try (ResultSet row = read.executeQuery()) {
                return row.next() ? row.getLong(1) : -1;
            }
        }
    }

    /** The fencing token that holds {@code taskId}'s row of dedupq_effect, outcome or not; -1 without a row. */
    public static long claimedToken(String taskId) throws SQLException {
        try (Connection connection = PostgresTestResource.postgres().connect();
                PreparedStatement read = connection.prepareStatement("SELECT fencing_token FROM dedupq_effect WHERE task_id = ?")) {
            read.setString(1, taskId);
            try (ResultSet row = read.executeQuery()) {
                return row.next() ? row.getLong(1) : -1;
            }
        }
    }
}
