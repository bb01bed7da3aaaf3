package io.dedupq.queue;

import java.util.Locale;

/** Where a task is in its life; the lower-case name is what Redis and the API carry. */
public enum TaskStatus {
    QUEUED, RUNNING, RETRYING, SUCCEEDED, FAILED, DEAD;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
