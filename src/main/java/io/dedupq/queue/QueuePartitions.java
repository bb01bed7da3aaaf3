package io.dedupq.queue;

import io.dedupq.config.DedupqConfig;
import io.dedupq.handler.HandlerRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The physical queues behind each queue. A queue with one partition (the default) is stored
 * under its own name; with N > 1 partitions it becomes {@code Q#0 .. Q#N-1}, each with its own
 * hash tag {@code {<prefix>:Q#i}}, so a hot queue spreads over cluster shards. A task id always
 * maps to the same partition — CRC-32 (the zlib/PNG one) of the id's UTF-8 bytes, as an
 * unsigned number, modulo N — so every copy of an id meets the others in one slot and
 * deduplication holds. Producers that push onto the lists themselves compute the same:
 * {@code zlib.crc32(id.encode()) % n} in Python, {@code java.util.zip.CRC32} in Java.
 */
@ApplicationScoped
public class QueuePartitions {

    public static final char SEPARATOR = '#';

    private final DedupqConfig config;
    private final List<String> all = new ArrayList<>();

    public QueuePartitions(HandlerRegistry registry, DedupqConfig config) {
        this.config = config;
        for (String queue : registry.queues()) {
            if (queue.isEmpty() || queue.matches(".*[#{}].*")) {
                throw new IllegalStateException("queue name '" + queue + "' must not be empty nor contain '#' (it names"
                        + " partitions) or braces (they would change the hash tag, and so the cluster slot)");
            }
            int partitions = count(queue);
            if (partitions < 1 || partitions > 1024) {
                throw new IllegalStateException("dedupq.queues." + queue + ".partitions must be 1-1024, got " + partitions);
            }
            all.addAll(of(queue));
        }
    }

    /** Every partition of every queue: what a worker consumes, beats in, reaps and promotes. */
    public List<String> all() {
        return all;
    }

    /** The partitions of {@code queue}: just {@code queue}, or {@code queue#0 .. queue#N-1}. */
    public List<String> of(String queue) {
        int n = count(queue);
        if (n == 1) {
            return List.of(queue);
        }
        List<String> names = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            names.add(queue + SEPARATOR + i);
        }
        return names;
    }

    /** The partition that holds task {@code id} of {@code queue}. */
    public String forTask(String queue, String id) {
        int n = count(queue);
        return n == 1 ? queue : queue + SEPARATOR + index(id, n);
    }

    /** crc32(UTF-8 id) mod partitions. */
    public static int index(String id, int partitions) {
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % partitions);
    }

    /** The queue a partition belongs to: the name before '#'. */
    public static String queueOf(String partition) {
        int cut = partition.indexOf(SEPARATOR);
        return cut < 0 ? partition : partition.substring(0, cut);
    }

    /** The settings of the queue that {@code partition} belongs to. */
    public DedupqConfig.QueueConfig settings(String partition) {
        return config.queues().get(queueOf(partition));
    }

    private int count(String queue) {
        return config.queues().get(queue).partitions();
    }
}
