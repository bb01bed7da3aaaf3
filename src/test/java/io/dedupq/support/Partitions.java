package io.dedupq.support;

import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;

/** Partitions as the tests name them. */
public final class Partitions {

    private Partitions() {
    }

    /** The one partition of a queue that is not split ({@code dedupq.queues.<q>.partitions} 1, the default). */
    public static Partition whole(String queue) {
        return new Partition(queue, 0, 1);
    }

    /** A fresh task id of {@code queue} (named after {@code prefix}) that goes to {@code partition}. */
    public static String idOn(QueuePartitions partitions, String queue, Partition partition, String prefix) {
        while (true) {
            String id = Api.uniqueId(prefix);
            if (partitions.forTask(queue, id).equals(partition)) {
                return id;
            }
        }
    }
}
