package io.dedupq.worker;

import io.dedupq.queue.TaskStatus;

/**
 * What one execution came to, waiting to be recorded by its partition's owner.
 *
 * @param claim       the copy that ran
 * @param type        its task type as the envelope gave it ({@code TaskMetrics.UNKNOWN_TYPE} when unreadable)
 * @param attempt     its attempt, 0 when the envelope did not read
 * @param status      the outcome
 * @param detail      the result JSON (succeeded, may be empty) or the error message
 * @param next        retrying: the next envelope; failed/dead: the dead-letter record; otherwise empty
 * @param delay       retrying: in how long the next attempt is due (ms); claim.lua adds it to Redis's clock
 * @param lossCounted the watchdog already counted this execution's lost lock
 */
public record Outcome(Claim claim, String type, int attempt, TaskStatus status, String detail, String next, long delay,
        boolean lossCounted) {

    public Outcome {
        next = next == null ? "" : next;
    }
}
