package io.dedupq.handler;

import java.util.function.BooleanSupplier;

/**
 * What a handler knows about the execution it runs in. The worker's lock watchdog keeps the
 * task's lock alive while the handler runs; {@link #lockLost()} tells the handler when that
 * failed.
 */
public final class ExecutionContext {

    private final String taskId;
    private final String queue;
    private final int attempt;
    private final long fencingToken;
    private final BooleanSupplier lockLost;

    /**
     * @param lockLost read on every {@link #lockLost()} call: the watchdog's live verdict
     */
    public ExecutionContext(String taskId, String queue, int attempt, long fencingToken, BooleanSupplier lockLost) {
        this.taskId = taskId;
        this.queue = queue;
        this.attempt = attempt;
        this.fencingToken = fencingToken;
        this.lockLost = lockLost;
    }

    /** The task id, the idempotency key toward other systems. */
    public String taskId() {
        return taskId;
    }

    /** The queue the task came from. */
    public String queue() {
        return queue;
    }

    /** 0 for the first execution, 1 for the first retry, ... */
    public int attempt() {
        return attempt;
    }

    /**
     * Grows with every lock acquisition of the queue. A resource that remembers the largest token
     * it has seen per task (for example {@code UPDATE ... WHERE last_token < ?}) can refuse a late
     * write from an execution whose lock expired.
     */
    public long fencingToken() {
        return fencingToken;
    }

    /**
     * True from the moment the watchdog found this execution's lock expired or taken by another
     * execution; the handler thread is interrupted at the same time. Another execution may run
     * the task now: stop, and write nothing that is not fenced. The outcome of this execution
     * is not recorded over the newer one's.
     */
    public boolean lockLost() {
        return lockLost.getAsBoolean();
    }

    @Override
    public String toString() {
        return "ExecutionContext[taskId=" + taskId + ", queue=" + queue + ", attempt=" + attempt + ", fencingToken="
                + fencingToken + ", lockLost=" + lockLost() + "]";
    }
}
