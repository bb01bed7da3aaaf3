package io.dedupq.queue;

import java.util.Locale;

/** Where a task is in its life; the lower-case name is what Redis and the API carry. */
public enum TaskStatus {
    QUEUED, RUNNING, RETRYING, SUCCEEDED, FAILED, DEAD;

    private final String wire = name().toLowerCase(Locale.ROOT);

    public String wire() {
        return wire;
    }
}
