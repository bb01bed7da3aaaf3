package io.dedupq.support;

import io.dedupq.queue.Partition;

/** Partitions as the tests name them. */
public final class Partitions {

    private Partitions() {
    }

    /** The one partition of a queue that is not split ({@code dedupq.queues.<q>.partitions} 1, the default). */
    public static Partition whole(String queue) {
        return new Partition(queue, 0, 1);
    }
}
