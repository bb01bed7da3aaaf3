package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A test-only task type ("stubborn", its own queue) whose handler does not return until the
 * test releases its task id and does not answer an interrupt either, like a call stuck on a
 * socket without a timeout: it outlives any shutdown grace. It gives up after a minute so that
 * a failed test never hangs the suite.
 */
@ApplicationScoped
public class StubbornHandler implements TaskHandler<StubbornHandler.Payload> {

    public static final String TYPE = "stubborn";

    /** Nothing: the task id is what the test releases. */
    public record Payload() {
    }

    private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();
    private final Set<String> running = ConcurrentHashMap.newKeySet();

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
        running.add(ctx.taskId());
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        try {
            while (System.nanoTime() < deadline) {
                try {
                    if (gate(ctx.taskId()).await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                        break;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return null;
        } finally {
            running.remove(ctx.taskId());
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public boolean running(String id) {
        return running.contains(id);
    }

    public void release(String id) {
        gate(id).countDown();
    }

    private CountDownLatch gate(String id) {
        return gates.computeIfAbsent(id, k -> new CountDownLatch(1));
    }
}
