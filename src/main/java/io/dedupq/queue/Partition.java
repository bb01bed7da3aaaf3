package io.dedupq.queue;

import java.util.Objects;

/**
 * One physical queue: partition {@code index} of the {@code of} partitions of {@code queue}.
 * Every per-partition Redis key, log line and metric tag names it by {@link #name()}: a queue
 * with one partition by its own name, partition i of a partitioned one as {@code queue#i}
 * ({@link QueuePartitions} hands them out).
 */
public record Partition(String queue, int index, int of) {

    /** Between a queue's name and a partition's index; queue names must not contain it. */
    public static final char SEPARATOR = '#';

    public Partition {
        Objects.requireNonNull(queue, "queue");
        if (of < 1 || index < 0 || index >= of) {
            throw new IllegalArgumentException("partition " + index + " of " + of + " of queue " + queue);
        }
    }

    /** The name in keys ({@link RedisKeys#base}), logs and metric tags: {@code queue}, or {@code queue#index}. */
    public String name() {
        return of == 1 ? queue : queue + SEPARATOR + index;
    }

    @Override
    public String toString() {
        return name();
    }
}
