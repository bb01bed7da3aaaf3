package io.dedupq.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * A thread that hands items over in groups: an item that finds the lane idle goes out at once;
 * items added while a group is being handled go together in the next one. So a quiet lane
 * adds no delay and a busy one spends one call per group, not per item.
 */
public final class GroupingLane<T> {

    private final BlockingQueue<T> waiting = new LinkedBlockingQueue<>();
    private final int maxGroup;
    private final Consumer<List<T>> handler;
    private final Thread thread;

    /** {@code handler} gets at most {@code maxGroup} items at a time and must not throw. */
    public GroupingLane(String threadName, int maxGroup, Consumer<List<T>> handler) {
        this.maxGroup = maxGroup;
        this.handler = handler;
        this.thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    public void add(T item) {
        waiting.add(item);
    }

    /** Ends the thread; what is still waiting is not handled. */
    public void stop() {
        thread.interrupt();
    }

    private void run() {
        List<T> group = new ArrayList<>(maxGroup);
        while (!Thread.currentThread().isInterrupted()) {
            try {
                group.add(waiting.take());
            } catch (InterruptedException e) {
                return;
            }
            waiting.drainTo(group, maxGroup - 1);
            handler.accept(group);
            group.clear();
        }
    }
}
