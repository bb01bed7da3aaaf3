package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test-only task types of the priority tests, each on a queue of its own with one slot (test
 * profile): every execution is recorded in the order it started; a task with {@code hold} waits
 * until {@link #release()} (at most a minute), holding the queue's slot while the test enqueues.
 * Subclasses are {@code @Singleton} beans, one per queue and priority order.
 */
public abstract class RankedHandler implements TaskHandler<RankedHandler.Payload> {

    public record Payload(Boolean hold) {
    }

    private final String type;
    private final List<String> starts = new CopyOnWriteArrayList<>();
    private final CountDownLatch gate = new CountDownLatch(1);
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();

    protected RankedHandler(String type) {
        this.type = type;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public Class<Payload> payloadType() {
        return Payload.class;
    }

    @Override
    public Object handle(Payload payload, ExecutionContext ctx) throws InterruptedException {
        peak.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            starts.add(ctx.taskId());
            if (Boolean.TRUE.equals(payload.hold())) {
                gate.await(1, TimeUnit.MINUTES);
            }
            return null;
        } finally {
            running.decrementAndGet();
        }
    }

    /** The most executions that ever ran at once. */
    public int peakRunning() {
        return peak.get();
    }

    /** Task ids in the order their executions started. */
    public List<String> starts() {
        return List.copyOf(starts);
    }

    public void release() {
        gate.countDown();
    }

    /** Type "ranked": strict order between levels. */
    @Singleton
    public static class Strict extends RankedHandler {
        public static final String TYPE = "ranked";

        public Strict() {
            super(TYPE);
        }
    }

    /** Type "ranked-weighted": weighted order between levels. */
    @Singleton
    public static class Weighted extends RankedHandler {
        public static final String TYPE = "ranked-weighted";

        public Weighted() {
            super(TYPE);
        }
    }
}
