package io.dedupq.queue;

import io.smallrye.faulttolerance.api.ApplyGuard;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * Pauses and resumes a queue: the paused flag of each of its partitions, in Redis so that it
 * outlives pods. claim.lua reads the flag atomically with every claim; nothing else does.
 * Both actions are idempotent.
 */
@ApplicationScoped
public class QueuePauses {

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;

    public QueuePauses(RedisCalls redis, RedisKeys keys, QueuePartitions partitions) {
        this.redis = redis;
        this.keys = keys;
        this.partitions = partitions;
    }

    /** Sets ({@code paused}) or clears the flag on every partition of {@code queue}. */
    @ApplyGuard(RedisGuard.NAME)
    public void set(String queue, boolean paused) {
        List<KeyedCommand> writes = new ArrayList<>();
        for (Partition partition : partitions.of(queue)) {
            writes.add(paused ? KeyedCommand.of(Command.SET, keys.paused(partition)).arg("1")
                    : KeyedCommand.of(Command.DEL, keys.paused(partition)));
        }
        redis.batch(writes);
    }
}
