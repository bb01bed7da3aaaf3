package io.dedupq.queue;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What happened to one submitted task.
 *
 * @param status    the task's status now ({@code queued} for a newly accepted one)
 * @param duplicate the id was already known with the same type and payload: nothing enqueued
 * @param conflict  the id was already known with another type or payload: nothing enqueued
 */
@RegisterForReflection
public record EnqueueResult(String id, String queue, String status, boolean duplicate, boolean conflict) {

    public boolean accepted() {
        return !duplicate && !conflict;
    }
}
