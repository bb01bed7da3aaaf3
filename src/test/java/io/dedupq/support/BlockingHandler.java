package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test-only task type ("blocking", queue "blocking", one slot in the test profile) whose
 * handler does not return until the test releases its task id, so the queue's partition really
 * stops coming round. With {@code ignoreInterrupts} it does not answer an interrupt either, like
 * a call stuck on a socket without a timeout, and outlives any shutdown grace. It gives up after
 * a minute so that a failed test never hangs the suite.
 */
@ApplicationScoped
public class BlockingHandler implements TaskHandler<BlockingHandler.Payload> {

    /** The task id is what the test releases. */
    public record Payload(Boolean ignoreInterrupts) {
    }

    public static final String TYPE = "blocking";

    private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final Map<String, ExecutionContext> contexts = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();

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
        contexts.put(ctx.taskId(), ctx);
        executions.computeIfAbsent(ctx.taskId(), id -> new AtomicInteger()).incrementAndGet();
        running.add(ctx.taskId());
        try {
            awaitRelease(ctx.taskId(), Boolean.TRUE.equals(payload.ignoreInterrupts()));
            return null;
        } finally {
            running.remove(ctx.taskId());
        }
    }

    /** Until released or a minute is over; an ignored interrupt is set again on the thread at the end. */
    private void awaitRelease(String id, boolean ignoreInterrupts) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    gate(id).await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                    return;
                } catch (InterruptedException e) {
                    if (!ignoreInterrupts) {
                        throw e;
                    }
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public boolean running(String id) {
        return running.contains(id);
    }

    /** The context of the task's last execution, or null before it started: what the worker told it. */
    public ExecutionContext context(String id) {
        return contexts.get(id);
    }

    /** How many times the handler started on {@code id}: a released task's gate stays open, so a second run returns at once. */
    public int executions(String id) {
        AtomicInteger n = executions.get(id);
        return n == null ? 0 : n.get();
    }

    public void release(String id) {
        gate(id).countDown();
    }

    private CountDownLatch gate(String id) {
        return gates.computeIfAbsent(id, k -> new CountDownLatch(1));
    }
}
