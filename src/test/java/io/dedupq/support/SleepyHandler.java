package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test-only task type ("sleepy", queue "sleepy", whose test profile sets a 1 s timeout) that
 * works for {@code sleepMillis} in {@code reports} steps, reporting its progress after each
 * ({@code reports} 0: one sleep, no progress). With {@code ignoreInterrupts} it goes on sleeping
 * through interrupts, like code that swallows them, and still returns normally. It keeps every
 * execution's context so tests can read what the worker told it.
 */
@ApplicationScoped
public class SleepyHandler implements TaskHandler<SleepyHandler.Payload> {

    public static final String TYPE = "sleepy";

    public record Payload(@NotNull @Min(0) Integer sleepMillis, @Min(0) Integer reports, Boolean ignoreInterrupts) {
    }

    private final Map<String, List<ExecutionContext>> executions = new ConcurrentHashMap<>();

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Class<Payload> payloadType() {
        return Payload.class;
    }

    @Override
    public Object handle(Payload payload, ExecutionContext ctx) throws InterruptedException {
        executions.computeIfAbsent(ctx.taskId(), id -> new CopyOnWriteArrayList<>()).add(ctx);
        int steps = payload.reports() == null || payload.reports() == 0 ? 1 : payload.reports();
        boolean interrupted = false;
        for (int step = 1; step <= steps; step++) {
            long until = System.nanoTime() + payload.sleepMillis() * 1_000_000L / steps;
            while (System.nanoTime() < until) {
                try {
                    Thread.sleep(Math.max(1, (until - System.nanoTime()) / 1_000_000L));
                } catch (InterruptedException e) {
                    if (!Boolean.TRUE.equals(payload.ignoreInterrupts())) {
                        throw e;
                    }
                    interrupted = true;
                }
            }
            if (payload.reports() != null && payload.reports() > 0) {
                ctx.progress(step * 100 / steps, "step " + step + " of " + steps);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return Map.of("steps", steps);
    }

    public List<ExecutionContext> executions(String id) {
        return executions.getOrDefault(id, List.of());
    }
}
