package io.dedupq.queue;

import io.dedupq.config.DedupqConfig;
import io.dedupq.handler.HandlerRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The physical queues behind each queue, as {@link Partition}s. A queue with one partition (the
 * default) is stored under its own name; with N > 1 partitions it becomes {@code Q#0 .. Q#N-1},
 * each with its own hash tag {@code {<prefix>:Q#i}}, so a hot queue spreads over cluster shards. A task id always
 * maps to the same partition — CRC-32 (the zlib/PNG one) of the id's UTF-8 bytes, as an
 * unsigned number, modulo N — so every copy of an id meets the others in one slot and
 * deduplication holds. Producers that push onto the lists themselves compute the same:
 * {@code zlib.crc32(id.encode()) % n} in Python, {@code java.util.zip.CRC32} in Java.
 * Created at start, so that settings it cannot work with stop the start on any pod.
 */
@Startup
@ApplicationScoped
public class QueuePartitions {

    private final DedupqConfig config;
    private final List<Partition> all = new ArrayList<>();

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
            refuseUnworkable(queue, partitions, config.queues().get(queue));
            all.addAll(of(queue));
        }
    }

    /** Stops the start when the controls of {@code queue} cannot work with its partitions. */
    static void refuseUnworkable(String queue, int partitions, DedupqConfig.QueueConfig settings) {
        if (settings.groupConcurrency() < 0) {
            throw new IllegalStateException("dedupq.queues." + queue + ".group-concurrency must be 0 (off) or more, got "
                    + settings.groupConcurrency());
        }
        if (partitions > 1 && (settings.rateLimit().isPresent() || settings.groupConcurrency() > 0
                || settings.groupRateLimit().isPresent())) {
            throw new IllegalStateException("dedupq.queues." + queue + ".rate-limit, group-concurrency and"
                    + " group-rate-limit need partitions = 1, got " + partitions
                    + ": each partition would enforce its own limit, multiplying it");
        }
    }

    /** Every partition of every queue: what a worker consumes, beats in, reaps and promotes. */
    public List<Partition> all() {
        return all;
    }

    /** The partitions of {@code queue}: just {@code queue}, or {@code queue#0 .. queue#N-1}. */
    public List<Partition> of(String queue) {
        int n = count(queue);
        List<Partition> partitions = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            partitions.add(new Partition(queue, i, n));
        }
        return partitions;
    }

    /** The partition that holds task {@code id} of {@code queue}. */
    public Partition forTask(String queue, String id) {
        int n = count(queue);
        return new Partition(queue, n == 1 ? 0 : index(id, n), n);
    }

    /** crc32(UTF-8 id) mod partitions. */
    public static int index(String id, int partitions) {
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % partitions);
    }

    /** The settings of the queue that {@code partition} belongs to. */
    public DedupqConfig.QueueConfig settings(Partition partition) {
        return config.queues().get(partition.queue());
    }

    private int count(String queue) {
        return config.queues().get(queue).partitions();
    }
}
