package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.handler.HandlerRegistry;
import io.dedupq.lock.LockScripts;
import io.dedupq.metrics.TaskMetrics;
import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.vertx.core.Context;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Keeps the locks of this pod's running executions alive: each is extended every lock-ttl/3
 * with extend.lua, which checks the token, and the extensions due at the same tick go out in
 * one pipelined write. An extension answered "not yours" means the lock expired or another
 * execution took it: that execution is marked as having lost its lock and its handler thread
 * is interrupted. A Redis failure is not a verdict; the extension is tried again next tick.
 */
@ApplicationScoped
public class Watchdog {

    private static final Logger LOG = Logger.getLogger(Watchdog.class);
    private static final Duration FINEST_TICK = Duration.ofMillis(10);

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final HandlerRegistry registry;
    private final DedupqConfig config;
    private final QueuePartitions partitions;
    private final TaskMetrics metrics;
    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();
    private final PeriodicLoop loop = new PeriodicLoop("watchdog");

    public Watchdog(RedisCalls redis, RedisKeys keys, HandlerRegistry registry, DedupqConfig config,
            QueuePartitions partitions, TaskMetrics metrics) {
        this.redis = redis;
        this.keys = keys;
        this.registry = registry;
        this.config = config;
        this.partitions = partitions;
        this.metrics = metrics;
    }

    /**
     * One execution under watch, on the thread that runs its handler. Close it when the handler
     * has returned: from then on nothing is extended or interrupted.
     */
    public final class Watch implements AutoCloseable {

        private final Partition partition;
        private final String type;
        private final Claim claim;
        private final Thread thread;
        private final long ttlMillis;
        private volatile long dueAt;
        private volatile boolean lost;
        private boolean open = true;

        /** @param thread interrupted when the lock is lost; null for a handler on the event loop, never interrupted */
        private Watch(Partition partition, String type, Claim claim, Thread thread, long ttlMillis) {
            this.partition = partition;
            this.type = type;
            this.claim = claim;
            this.thread = thread;
            this.ttlMillis = ttlMillis;
            this.dueAt = nextDue(System.nanoTime());
        }

        /**
         * True once an extension found the lock gone or held by another token; the watchdog has
         * then counted the lost lock.
         */
        public boolean lost() {
            return lost;
        }

        private long nextDue(long now) {
            return now + Duration.ofMillis(ttlMillis / 3).toNanos();
        }

        private synchronized boolean markLost() {
            if (!open || lost) {
                return false;
            }
            lost = true;
            if (thread != null) {
                thread.interrupt();
            }
            return true;
        }

        /** Stops watching; an interrupt the watchdog sent is cleared so the outcome can be written. */
        @Override
        public synchronized void close() {
            open = false;
            watched.remove(this);
            if (lost && Thread.currentThread() == thread) {
                Thread.interrupted();
            }
        }
    }

    public void start() {
        loop.start(tick(), this::extendDue);
    }

    public void stop() {
        loop.stop();
    }

    /**
     * Starts watching the claim's lock for the calling thread, which is about to run a handler of
     * {@code type}; an event loop thread is never interrupted.
     */
    public Watch watch(Partition partition, String type, Claim claim) {
        Watch watch = new Watch(partition, type, claim, Context.isOnEventLoopThread() ? null : Thread.currentThread(),
                partitions.settings(partition).lockTtl().toMillis());
        watched.add(watch);
        return watch;
    }

    /** One pipelined round of extend.lua for every watched lock whose third of a TTL has passed. */
    public void extendDue() {
        long now = System.nanoTime();
        List<Watch> due = new ArrayList<>();
        List<ScriptCall> calls = new ArrayList<>();
        for (Watch watch : watched) {
            if (watch.dueAt - now <= 0) {
                due.add(watch);
                calls.add(new LockScripts.Extend(keys.lock(watch.partition, watch.claim.id()), watch.claim.token(),
                        watch.ttlMillis).script());
            }
        }
        if (due.isEmpty()) {
            return;
        }
        // a Redis failure throws here: nothing is judged, every extension stays due for the next tick
        List<Response> replies = redis.scripts(calls);
        for (int i = 0; i < due.size(); i++) {
            Watch watch = due.get(i);
            if (LockScripts.held(replies.get(i))) {
                extended(watch, now);
            } else {
                lockLost(watch);
            }
        }
    }

    /** The one place where an extension succeeded. */
    private void extended(Watch watch, long sentAt) {
        watch.dueAt = watch.nextDue(sentAt);
        metrics.lockExtended(watch.partition, watch.type);
    }

    /** The one place where an execution is found to have lost its lock. */
    private void lockLost(Watch watch) {
        if (watch.markLost()) {
            metrics.lockLost(watch.partition, watch.type, "watchdog");
            LOG.warnf("queue %s: task %s (token %s) lost its lock; its handler is interrupted and its outcome will not "
                    + "overwrite a newer execution's", watch.partition, watch.claim.id(), watch.claim.token());
        }
    }

    /** Fine enough that every lock is extended well before half its TTL has passed. */
    private Duration tick() {
        Duration shortest = registry.queues().stream().map(q -> config.queues().get(q).lockTtl())
                .min(Duration::compareTo).orElse(Duration.ofSeconds(30));
        Duration tick = shortest.dividedBy(6);
        return tick.compareTo(FINEST_TICK) < 0 ? FINEST_TICK : tick;
    }
}
