package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import jakarta.enterprise.context.ApplicationScoped;

/** Moves retries that are due from each partition's delayed set to its pending list (promote.lua). */
@ApplicationScoped
public class DelayedPromoter {

    private static final int PER_CALL = 1000;

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;
    private final DedupqConfig config;
    private final PeriodicLoop loop = new PeriodicLoop("promoter");

    public DelayedPromoter(RedisCalls redis, RedisKeys keys, QueuePartitions partitions, DedupqConfig config) {
        this.redis = redis;
        this.keys = keys;
        this.partitions = partitions;
        this.config = config;
    }

    public void start() {
        loop.start(config.worker().promoteInterval(), this::promoteDue);
    }

    public void stop() {
        loop.stop();
    }

    /** Atomic per partition, so every worker pod may run it; no lock is needed. Due by Redis's clock, not this pod's. */
    public void promoteDue() {
        for (Partition partition : partitions.all()) {
            redis.script(new PromoteScript.Call(partition, PER_CALL).script(keys));
        }
    }
}
