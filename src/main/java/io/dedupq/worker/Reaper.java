package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.handler.HandlerRegistry;
import io.dedupq.lock.DistributedLock;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import org.jboss.logging.Logger;

/**
 * Finds workers whose heartbeat expired and puts their in-flight copies back on pending, with
 * their locks freed. One pod at a time does it, under a {@link DistributedLock}.
 */
@ApplicationScoped
public class Reaper {

    private static final Logger LOG = Logger.getLogger(Reaper.class);

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final HandlerRegistry registry;
    private final Claimer claimer;
    private final WorkerIdentity self;
    private final DistributedLock lock;
    private final DedupqConfig config;
    private final Clock clock;
    private final PeriodicLoop loop = new PeriodicLoop("reaper");

    public Reaper(RedisCalls redis, RedisKeys keys, HandlerRegistry registry, Claimer claimer, WorkerIdentity self,
            DistributedLock lock, DedupqConfig config, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.registry = registry;
        this.claimer = claimer;
        this.self = self;
        this.lock = lock;
        this.config = config;
        this.clock = clock;
    }

    public void start() {
        loop.start(config.worker().reaperInterval(), () ->
                lock.execute(keys.jobLock("reaper"), config.worker().heartbeatExpiry(), this::reapExpired));
    }

    public void stop() {
        loop.stop();
    }

    /**
     * Requeues the copies of every worker whose last heartbeat is older than the expiry. Never
     * this process's own worker: it is alive by definition, and its heartbeat is only old because
     * Redis did not answer for a while (stopped, frozen, unreachable). Requeueing its copies would
     * free the locks of tasks its handlers are still running and run them a second time.
     */
    public void reapExpired() {
        long cutoff = clock.millis() - config.worker().heartbeatExpiry().toMillis();
        Response expired = redis.send(Request.cmd(Command.ZRANGEBYSCORE).arg(keys.workers()).arg("-inf").arg(cutoff));
        for (Response entry : expired) {
            String worker = entry.toString();
            if (worker.equals(self.id())) {
                continue;
            }
            long moved = 0;
            for (String queue : registry.queues()) {
                moved += claimer.requeueAll(queue, worker);
            }
            // a paused worker that comes back re-adds itself with its next beat
            redis.send(Request.cmd(Command.ZREM).arg(keys.workers()).arg(worker));
            LOG.infof("reaped worker %s: %d copies back to pending", worker, moved);
        }
    }
}
