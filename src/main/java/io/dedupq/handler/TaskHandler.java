package io.dedupq.handler;

/**
 * The code that runs one task type. Implement it as a CDI bean ({@code @ApplicationScoped});
 * dedupq finds it, routes its type to a queue, validates each payload against
 * {@link #payloadType()} (Bean Validation annotations included) before calling
 * {@link #handle}, and takes care of locking, duplicates, retries and recovery.
 *
 * <p>Outcomes: returning normally means success (the returned value, if not null, is stored as
 * the task's JSON result); throwing {@link PermanentFailure} fails the task at once; any other
 * exception is retried with backoff until the queue's max attempts are used up.
 */
public interface TaskHandler<P> {

    /** The task type this handler runs, as sent in {@code "type"}. */
    String type();

    /** The payload record; bound strictly from the task's JSON payload and validated. */
    Class<P> payloadType();

    Object handle(P payload, ExecutionContext ctx) throws Exception;

    /**
     * False for a handler that never blocks (no waiting on I/O, locks or sleeps; work of
     * microseconds): it then runs on the worker's event loop, where its claim's reply arrives
     * and from where its outcome is sent, as a BullMQ processor runs on Node's loop, with no
     * handler thread to wake. The queue's concurrency still bounds how many run at once. A
     * handler that blocks there stalls every queue of the pod; when the watchdog finds that its
     * lock was lost, {@link ExecutionContext#lockLost()} says so, but the loop is never
     * interrupted. Default true: the handler runs on its queue's handler threads.
     */
    default boolean blocking() {
        return true;
    }

    /**
     * The group of a task whose submission names none, for the queue's
     * {@code group-concurrency}: at most that many tasks of one group run at once in the whole
     * fleet (a payment handler returns the account id: one payment per account at a time).
     * Called at enqueue with the bound payload; null (the default) for no group. Must follow the
     * task-id rule (1-128 of {@code A-Z a-z 0-9 . _ : -}, starting with a letter or digit): a
     * group that does not is refused as an invalid task, naming {@code group}.
     */
    default String group(P payload) {
        return null;
    }
}
