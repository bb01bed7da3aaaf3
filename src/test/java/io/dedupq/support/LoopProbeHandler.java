package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test-only handler that never blocks ("loop-probe", queue "loop-probe"), so it runs on the
 * worker's event loop: it records on which thread each execution ran, and fails with a
 * retryable error for its first {@code failures} executions.
 */
@ApplicationScoped
public class LoopProbeHandler implements TaskHandler<LoopProbeHandler.Payload> {

    public static final String TYPE = "loop-probe";

    public record Payload(@NotNull @Min(0) Integer failures) {
    }

    /** One execution: the thread it ran on and whether that was a Vert.x event loop. */
    public record Run(String thread, boolean onEventLoop, int attempt) {
    }

    private final Map<String, List<Run>> runs = new ConcurrentHashMap<>();

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Class<Payload> payloadType() {
        return Payload.class;
    }

    @Override
    public boolean blocking() {
        return false;
    }

    @Override
    public Object handle(Payload payload, ExecutionContext ctx) {
        List<Run> mine = runs.computeIfAbsent(ctx.taskId(), id -> new CopyOnWriteArrayList<>());
        mine.add(new Run(Thread.currentThread().getName(), Context.isOnEventLoopThread(), ctx.attempt()));
        if (mine.size() <= payload.failures()) {
            throw new IllegalStateException("failure " + mine.size() + " of " + payload.failures());
        }
        return Map.of("runs", mine.size());
    }

    public List<Run> runs(String id) {
        return runs.getOrDefault(id, List.of());
    }
}
