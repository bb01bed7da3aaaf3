package io.dedupq.sql;

import java.sql.Connection;

/** A handler's own writes, on a connection whose transaction dedupq commits or rolls back. */
@FunctionalInterface
public interface SqlWork<T> {

    /** Writes through {@code connection}; do not commit, roll back or close it. The result becomes the task's. */
    T apply(Connection connection) throws Exception;
}
