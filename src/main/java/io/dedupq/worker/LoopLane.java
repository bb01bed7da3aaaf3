package io.dedupq.worker;

import io.dedupq.queue.EventLoopRedis;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Hands items over in groups, on the event loop of {@link EventLoopRedis}: items come from any
 * thread; while fewer than {@code maxInFlight} groups are in flight, what is waiting goes out
 * at once, spread over the calls that are free; what arrives meanwhile goes in the next. So a
 * quiet lane adds no delay, a busy one spends one call per group, and the loop works on one
 * group's reply while Redis runs the next.
 */
public final class LoopLane<T> {

    private final EventLoopRedis loop;
    private final int maxGroup;
    private final int maxInFlight;
    private final Function<List<T>, Future<?>> send;
    private final Queue<T> waiting = new ConcurrentLinkedQueue<>();
    /** How many items {@link #waiting} holds (its own size() walks the queue). */
    private final AtomicInteger waitingCount = new AtomicInteger();
    /** A drain is queued on the loop: later items need not queue another. */
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Groups sent and not yet done; only touched on the loop. */
    private int inFlight;

    /**
     * {@code send} runs on the loop with at most {@code maxGroup} items; the group counts as in
     * flight until the future it returns completes, however it completes.
     */
    public LoopLane(EventLoopRedis loop, int maxGroup, int maxInFlight, Function<List<T>, Future<?>> send) {
        this.loop = loop;
        this.maxGroup = maxGroup;
        this.maxInFlight = maxInFlight;
        this.send = send;
    }

    public void add(T item) {
        waiting.add(item);
        waitingCount.incrementAndGet();
        if (scheduled.compareAndSet(false, true)) {
            // queued even when added on the loop: what the loop's current task adds goes in one group
            loop.schedule(this::drain);
        }
    }

    private void drain() {
        // cleared before reading, so an item added after the read queues a drain of its own
        scheduled.set(false);
        while (inFlight < maxInFlight && waitingCount.get() > 0) {
            // what waits is spread over the free calls: with several in flight, Redis runs one while
            // the loop reads another's reply (all in one call, the two would take turns)
            int free = maxInFlight - inFlight;
            int size = Math.min(maxGroup, (waitingCount.get() + free - 1) / free);
            List<T> group = new ArrayList<>(size);
            for (T item; group.size() < size && (item = waiting.poll()) != null; ) {
                waitingCount.decrementAndGet();
                group.add(item);
            }
            if (group.isEmpty()) {
                // counted before it was queued: its own add queues a drain
                return;
            }
            inFlight++;
            Future<?> sent;
            try {
                sent = send.apply(group);
            } catch (RuntimeException e) {
                sent = Future.failedFuture(e);
            }
            sent.onComplete(done -> {
                inFlight--;
                drain();
            });
        }
    }
}
