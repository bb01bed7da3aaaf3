package io.dedupq.handler;

/**
 * The task's effect is already committed (by an execution whose outcome did not reach Redis, or
 * by this one): this execution's writes were rolled back and it ends as a duplicate. The task
 * succeeds with the recorded outcome as its result; nothing is retried.
 */
public class AlreadyApplied extends RuntimeException {

    private final String outcome;

    /** @param outcome the recorded outcome, JSON; empty for none */
    public AlreadyApplied(String taskId, String outcome) {
        super("the effect of task " + taskId + " is already committed", null, false, false);
        this.outcome = outcome;
    }

    public String outcome() {
        return outcome;
    }
}
