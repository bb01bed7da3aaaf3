package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.dedupq.queue.TaskQueue;
import io.dedupq.queue.TaskView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test-only task type ("backoff-probe", its own queue with a backoff of 400 ms doubling up to
 * 1 s in the test profile) that fails its first {@code failures} executions and records, for
 * each one, when it started and what the task's status said then: from the second execution
 * on, the due time and the finish time of the retry that led to it. From those a test reads
 * the delays the worker really chose.
 */
@ApplicationScoped
public class BackoffProbe implements TaskHandler<BackoffProbe.Payload> {

    public static final String TYPE = "backoff-probe";

    public record Payload(@NotNull @Min(0) Integer failures) {
    }

    /** One execution: its attempt, its start (epoch ms) and the status it saw at that start. */
    public record Run(int attempt, long startedAt, Long previousDueAt, Long previousFinishedAt) {
    }

    private final TaskQueue queue;
    private final Map<String, List<Run>> runs = new ConcurrentHashMap<>();

    public BackoffProbe(TaskQueue queue) {
        this.queue = queue;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Class<Payload> payloadType() {
        return Payload.class;
    }

    @Override
    public Object handle(Payload payload, ExecutionContext ctx) {
        long startedAt = System.currentTimeMillis();
        TaskView seen = queue.status(ctx.taskId()).orElseThrow();
        List<Run> mine = runs.computeIfAbsent(ctx.taskId(), id -> new CopyOnWriteArrayList<>());
        mine.add(new Run(ctx.attempt(), startedAt, seen.nextAttemptAt(), seen.finishedAt()));
        if (mine.size() <= payload.failures()) {
            throw new IllegalStateException("failure " + mine.size() + " of " + payload.failures());
        }
        return Map.of("runs", mine.size());
    }

    public List<Run> runs(String id) {
        return runs.getOrDefault(id, List.of());
    }
}
