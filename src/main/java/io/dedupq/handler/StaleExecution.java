package io.dedupq.handler;

/**
 * A fenced resource refused this execution's write because a newer execution of the same task
 * already wrote with a larger fencing token. Nothing changed; the newer execution owns the task.
 */
public class StaleExecution extends PermanentFailure {

    public StaleExecution(String message) {
        super(message);
    }
}
