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
}
