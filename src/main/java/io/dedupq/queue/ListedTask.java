package io.dedupq.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One task of a queue's listing ({@code GET /api/queues/{queue}/tasks}). Times are epoch ms, ages on
 * Redis's clock; a field the task does not have is left out.
 *
 * @param state        {@code waiting}, {@code delayed} or {@code running}
 * @param attempt      0 for the first execution, as {@code ExecutionContext.attempt()}
 * @param since        what {@code ageMs} counts from: when the task was enqueued (waiting, delayed) or when
 *                     its execution started (running)
 * @param ageMs        Redis's time now minus {@code since}
 * @param dueAt        delayed: when its retry is due
 * @param priority     the task's priority level, 0-9 (5 when it was given none)
 * @param group        the task's group key, when it has one
 * @param progress     what its handler reported last ({@code ctx.progress}), when it reported anything
 * @param worker       running: the worker that runs it
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ListedTask(String id, String type, String state, int attempt, Long since, Long ageMs, Long dueAt,
        Integer priority, String group, TaskView.Progress progress, String worker) {
}
