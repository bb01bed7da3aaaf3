package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.PermanentFailure;
import io.dedupq.handler.TaskHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test-only task type ("flaky", routed to queue "flaky") that fails on purpose: it throws a
 * retryable error for its first {@code failures} executions, or a permanent one, or sleeps.
 * It records every execution so tests can count them.
 */
@ApplicationScoped
public class FlakyHandler implements TaskHandler<FlakyHandler.Payload> {

    public record Payload(@NotNull @Min(0) Integer failures, Boolean permanent, @Min(0) Integer sleepMillis) {
    }

    private final Map<String, List<ExecutionContext>> executions = new ConcurrentHashMap<>();
    private final Map<String, List<String>> threads = new ConcurrentHashMap<>();

    @Override
    public String type() {
        return "flaky";
    }

    @Override
    public Class<Payload> payloadType() {
        return Payload.class;
    }

    @Override
    public Object handle(Payload payload, ExecutionContext ctx) throws Exception {
        List<ExecutionContext> runs = executions.computeIfAbsent(ctx.taskId(), id -> new CopyOnWriteArrayList<>());
        runs.add(ctx);
        threads.computeIfAbsent(ctx.taskId(), id -> new CopyOnWriteArrayList<>()).add(Thread.currentThread().getName());
        if (payload.sleepMillis() != null) {
            Thread.sleep(payload.sleepMillis());
        }
        if (Boolean.TRUE.equals(payload.permanent())) {
            throw new PermanentFailure("refused for good");
        }
        if (runs.size() <= payload.failures()) {
            throw new IllegalStateException("failure " + runs.size() + " of " + payload.failures());
        }
        return Map.of("runs", runs.size());
    }

    public List<ExecutionContext> executions(String id) {
        return executions.getOrDefault(id, List.of());
    }

    /** The names of the threads the executions of {@code id} ran on, in order. */
    public List<String> threads(String id) {
        return threads.getOrDefault(id, List.of());
    }
}
