package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.health.RedisMemory;
import io.dedupq.metrics.TaskMetrics;
import io.dedupq.queue.EventLoopRedis;
import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisKeys;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.logging.Logger;

/**
 * Wires the worker side: starts the heartbeat, the watchdog and its cancel listener, one owner per
 * queue partition, the promoter and the reaper; stops them in the opposite order so that nothing is claimed after shutdown begins
 * and every unfinished copy is back on pending before the heartbeat disappears.
 */
@ApplicationScoped
public class WorkerPool {

    private static final Logger LOG = Logger.getLogger(WorkerPool.class);

    private final DedupqConfig config;
    private final QueuePartitions partitions;
    private final WorkerIdentity worker;
    private final Heartbeat heartbeat;
    private final Requeuer requeuer;
    private final DelayedPromoter promoter;
    private final Reaper reaper;
    private final Watchdog watchdog;
    private final CancelListener cancels;
    private final PartitionOwner.Collaborators collaborators;
    private final List<PartitionOwner> owners = new CopyOnWriteArrayList<>();

    public WorkerPool(DedupqConfig config, QueuePartitions partitions, WorkerIdentity worker, Heartbeat heartbeat,
            Requeuer requeuer, TaskRunner runner, DelayedPromoter promoter, Reaper reaper, Watchdog watchdog,
            EventLoopRedis loop, RedisKeys keys, TaskMetrics metrics, RedisMemory memory, CancelListener cancels) {
        this.cancels = cancels;
        this.config = config;
        this.partitions = partitions;
        this.worker = worker;
        this.heartbeat = heartbeat;
        this.requeuer = requeuer;
        this.promoter = promoter;
        this.reaper = reaper;
        this.watchdog = watchdog;
        this.collaborators = new PartitionOwner.Collaborators(loop, keys, worker, config, runner, requeuer, metrics,
                memory);
    }

    /** The owners of this worker's queue partitions; empty on a pod without workers. */
    public List<PartitionOwner> owners() {
        return List.copyOf(owners);
    }

    void onStart(@Observes StartupEvent event) {
        if (!config.worker().enabled()) {
            LOG.info("worker disabled (dedupq.worker.enabled=false): this pod only serves HTTP");
            return;
        }
        if (config.worker().heartbeatInterval().multipliedBy(3).compareTo(config.worker().heartbeatExpiry()) > 0) {
            throw new IllegalStateException("dedupq.worker.heartbeat-expiry (" + config.worker().heartbeatExpiry()
                    + ") must be at least 3 x dedupq.worker.heartbeat-interval (" + config.worker().heartbeatInterval()
                    + "): a worker claims only while its last beat is younger than half the expiry");
        }
        heartbeat.start();
        watchdog.start();
        cancels.start();
        for (Partition partition : partitions.all()) {
            PartitionOwner owner = new PartitionOwner(partition, partitions.settings(partition), collaborators);
            owners.add(owner);
            owner.start();
        }
        promoter.start();
        reaper.start();
        LOG.infof("worker %s consuming queues %s", worker.id(), partitions.all());
    }

    void onStop(@Observes ShutdownEvent event) {
        if (owners.isEmpty()) {
            return;
        }
        owners.forEach(PartitionOwner::stopClaiming);
        long deadline = System.nanoTime() + config.worker().shutdownGrace().toNanos();
        for (PartitionOwner owner : owners) {
            try {
                if (!owner.awaitHandlers(deadline)) {
                    LOG.warnf("queue %s: handlers still running after the shutdown grace; requeueing them",
                            owner.partition());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            owner.abandon();
        }
        cancels.stop();
        watchdog.stop();
        reaper.stop();
        promoter.stop();
        heartbeat.stop();
        try {
            long requeued = 0;
            for (PartitionOwner owner : owners) {
                requeued += requeuer.requeueAllAndLeave(owner.partition());
            }
            heartbeat.leave();
            LOG.infof("worker %s stopped; %d unfinished copies back on pending", worker.id(), requeued);
        } catch (RuntimeException e) {
            LOG.warnf("worker %s stopped without requeueing (%s); the reaper will do it after the heartbeat expires",
                    worker.id(), e.getMessage());
        }
        owners.clear();
    }
}
