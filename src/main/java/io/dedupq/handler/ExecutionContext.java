package io.dedupq.handler;

/**
 * What a handler knows about the execution it runs in, and how it reports progress. The worker's
 * watchdog keeps the task's lock alive while the handler runs; {@link #lockLost()},
 * {@link #cancelled()} and {@link #timedOut()} tell the handler when it should stop (its thread is
 * interrupted at the same moment).
 */
public final class ExecutionContext {

    /** Longest progress note kept; a longer one is cut to this many characters. */
    public static final int MAX_NOTE_LENGTH = 200;

    /** The worker's live verdicts on one execution, read on every call. */
    public interface Signals {

        boolean lockLost();

        boolean cancelled();

        boolean timedOut();
    }

    /** Where an execution's progress goes; the worker's writes it to the task's hash, coalesced. */
    @FunctionalInterface
    public interface Progress {

        /** {@code percent} is 0–100, {@code note} at most {@link #MAX_NOTE_LENGTH} characters, never null. */
        void report(int percent, String note);
    }

    private final String taskId;
    private final String queue;
    private final int attempt;
    private final long fencingToken;
    private final Signals signals;
    private final Progress progress;

    public ExecutionContext(String taskId, String queue, int attempt, long fencingToken, Signals signals,
            Progress progress) {
        this.taskId = taskId;
        this.queue = queue;
        this.attempt = attempt;
        this.fencingToken = fencingToken;
        this.signals = signals;
        this.progress = progress;
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
        return signals.lockLost();
    }

    /**
     * True from the moment the worker heard that the task was cancelled while this execution ran
     * ({@code POST /api/tasks/{id}/cancel}, {@code TaskQueue.cancel}); the handler thread is
     * interrupted at the same time. The task is already {@code cancelled}: stop, and undo what
     * should not stay. Whatever the handler returns or throws from now on is discarded.
     */
    public boolean cancelled() {
        return signals.cancelled();
    }

    /**
     * True once this execution ran past its timeout (the task's {@code timeout}, else the queue's
     * {@code dedupq.queues.<q>.timeout}); the handler thread is interrupted at the same time. The
     * attempt fails as retryable whatever the handler returns: the task is retried with the
     * queue's backoff while attempts are left.
     */
    public boolean timedOut() {
        return signals.timedOut();
    }

    /**
     * Reports how far the execution is, shown by {@code GET /api/tasks/{id}} while it runs and kept
     * when it ends. Cheap to call often: the worker writes at most once a second per task (the
     * last value reported always lands, at the latest when the handler returns), and only while
     * this execution still owns the task.
     *
     * @param percent 0 to 100
     * @param note    what the handler is doing, or null; cut to {@link #MAX_NOTE_LENGTH} characters
     * @throws IllegalArgumentException when {@code percent} is outside 0–100
     */
    public void progress(int percent, String note) {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("progress percent must be 0-100, was " + percent);
        }
        String text = note == null ? "" : note;
        progress.report(percent, text.length() > MAX_NOTE_LENGTH ? text.substring(0, MAX_NOTE_LENGTH) : text);
    }

    @Override
    public String toString() {
        return "ExecutionContext[taskId=" + taskId + ", queue=" + queue + ", attempt=" + attempt + ", fencingToken="
                + fencingToken + ", lockLost=" + lockLost() + ", cancelled=" + cancelled() + ", timedOut=" + timedOut()
                + "]";
    }
}
