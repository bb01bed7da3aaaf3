package io.dedupq.sql;

/** The build-time switch of this package's beans, {@code DedupqConfig.Sql#enabled}. */
public final class SqlSwitch {

    public static final String ENABLED = "dedupq.sql.enabled";

    private SqlSwitch() {
    }
}
