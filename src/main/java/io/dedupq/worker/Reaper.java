package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.lock.DistributedLock;
import io.dedupq.metrics.TaskMetrics;
import io.dedupq.queue.KeyedCommand;
import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Finds workers whose heartbeat expired and puts their in-flight copies back on pending, with
 * their locks freed. One pod at a time does it, under a {@link DistributedLock}.
 */
@ApplicationScoped
public class Reaper {

    private static final Logger LOG = Logger.getLogger(Reaper.class);
    private static final int FORGET_AFTER_EXPIRIES = 10;

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;
    private final Requeuer requeuer;
    private final WorkerIdentity self;
    private final Heartbeat heartbeat;
    private final DistributedLock lock;
    private final DedupqConfig config;
    private final TaskMetrics metrics;
    private final PeriodicLoop loop = new PeriodicLoop("reaper");

    public Reaper(RedisCalls redis, RedisKeys keys, QueuePartitions partitions, Requeuer requeuer, WorkerIdentity self,
            Heartbeat heartbeat, DistributedLock lock, DedupqConfig config, TaskMetrics metrics) {
        this.redis = redis;
        this.keys = keys;
        this.partitions = partitions;
        this.requeuer = requeuer;
        this.self = self;
        this.heartbeat = heartbeat;
        this.lock = lock;
        this.config = config;
        this.metrics = metrics;
    }

    public void start() {
        loop.start(config.worker().reaperInterval(), () -> {
            // After Redis was unreachable every heartbeat looks old, the live ones too. Judge
            // others only once this pod itself has beaten for a full expiry: by then every
            // live worker has had the same time to beat again.
            if (heartbeat.beatingFor().compareTo(config.worker().heartbeatExpiry()) >= 0) {
                lock.execute(keys.jobLock("reaper"), config.worker().heartbeatExpiry(), this::reapExpired);
            }
        });
    }

    public void stop() {
        loop.stop();
    }

    /**
     * Requeues the copies of every worker whose last heartbeat on a partition is older than the
     * expiry. Never this process's own worker: it is alive by definition, and requeueing its
     * copies would free the locks of tasks its handlers are still running. A presumed-dead
     * worker is forgotten only after ten expiries with an empty list, so a copy that a paused
     * worker moves in after all is still found. Ages are on Redis's clock, as heartbeats are
     * written: this pod's clock decides nothing (requeue.lua checks again with TIME).
     */
    public void reapExpired() {
        Duration expiry = config.worker().heartbeatExpiry();
        Duration forgetAfter = expiry.multipliedBy(FORGET_AFTER_EXPIRIES);
        long now = redis.serverMillis();
        long cutoff = now - expiry.toMillis();
        long forgetBefore = now - forgetAfter.toMillis();
        for (Partition partition : partitions.all()) {
            Response expired = redis.send(KeyedCommand.of(Command.ZRANGEBYSCORE, keys.workers(partition)).arg("-inf").arg(cutoff));
            for (Response entry : expired) {
                String worker = entry.toString();
                if (worker.equals(self.id())) {
                    continue;
                }
                List<String> moved = requeuer.requeueExpired(partition, worker, expiry, forgetAfter);
                metrics.reaped(partition, moved);
                if (!moved.isEmpty()) {
                    LOG.infof("queue %s: worker %s presumed dead, %d copies back to pending", partition, worker, moved.size());
                }
            }
        }
        redis.send(KeyedCommand.of(Command.ZREMRANGEBYSCORE, keys.workers()).arg("-inf").arg(forgetBefore));
    }
}
