package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.HandlerRegistry;
import io.dedupq.lock.LockScripts;
import io.dedupq.metrics.TaskMetrics;
import io.dedupq.queue.Partition;
import io.dedupq.queue.KeyedCommand;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Watches this pod's running executions. It keeps their locks alive: each is extended every
 * lock-ttl/3 with extend.lua, which checks the token, and the extensions due at the same tick go
 * out in one pipelined write. An extension answered "not yours" means the lock expired, another
 * execution took it, or the task was cancelled (cancel.lua deletes the lock): one read of the
 * task's cancelledBy tells which, and the execution is marked as lost or cancelled and its
 * handler thread interrupted. The same happens when {@link #cancelled} hears of the cancel first
 * (CancelListener), and when an execution passes its timeout. A Redis failure is not a verdict;
 * the extension is tried again next tick.
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
    private final Vertx vertx;
    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();
    private final PeriodicLoop loop = new PeriodicLoop("watchdog");

    public Watchdog(RedisCalls redis, RedisKeys keys, HandlerRegistry registry, DedupqConfig config,
            QueuePartitions partitions, TaskMetrics metrics, Vertx vertx) {
        this.vertx = vertx;
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
    public final class Watch implements AutoCloseable, ExecutionContext.Signals {

        private final Partition partition;
        private final String type;
        private final Claim claim;
        private final Thread thread;
        private final long ttlMillis;
        private volatile long dueAt;
        private volatile boolean lost;
        private volatile boolean cancelled;
        private volatile boolean timedOut;
        /** The Vert.x timer of the timeout, or -1 without one. */
        private long timer = -1;
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
        @Override
        public boolean lockLost() {
            return lost;
        }

        /** True once the task was cancelled while this execution ran: its outcome will be discarded. */
        @Override
        public boolean cancelled() {
            return cancelled;
        }

        /** True once the execution ran past its timeout: the attempt fails as retryable, whatever the handler does. */
        @Override
        public boolean timedOut() {
            return timedOut;
        }

        private long nextDue(long now) {
            return now + Duration.ofMillis(ttlMillis / 3).toNanos();
        }

        private synchronized boolean markLost() {
            if (!open || lost || cancelled) {
                return false;
            }
            lost = true;
            return interrupt();
        }

        private synchronized boolean markCancelled() {
            if (!open || cancelled) {
                return false;
            }
            cancelled = true;
            return interrupt();
        }

        private synchronized void markTimedOut() {
            if (open && !timedOut) {
                timedOut = true;
                interrupt();
            }
        }

        private boolean interrupt() {
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
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
            if ((lost || cancelled || timedOut) && Thread.currentThread() == thread) {
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
     * {@code type}; an event loop thread is never interrupted. With a {@code timeoutMillis} above
     * 0 the execution is marked timed out and interrupted once that much time has passed (this
     * pod's monotonic clock: a duration, not a point in time that pods would have to agree on).
     */
    public Watch watch(Partition partition, String type, Claim claim, long timeoutMillis) {
        Watch watch = new Watch(partition, type, claim, Context.isOnEventLoopThread() ? null : Thread.currentThread(),
                partitions.settings(partition).lockTtl().toMillis());
        watched.add(watch);
        if (timeoutMillis > 0) {
            synchronized (watch) {
                watch.timer = vertx.setTimer(timeoutMillis, id -> watch.markTimedOut());
            }
        }
        return watch;
    }

    /**
     * The task of the execution holding {@code token} was cancelled (cancel.lua's notice): if it
     * runs here, it is marked cancelled and its handler interrupted. Other pods' tokens are ignored.
     */
    public void cancelled(String token) {
        for (Watch watch : watched) {
            if (watch.claim.token().equals(token)) {
                cancel(watch);
            }
        }
    }

    /** One pipelined round of extend.lua for every watched lock whose third of a TTL has passed. */
    public void extendDue() {
        long now = System.nanoTime();
        List<Watch> due = new ArrayList<>();
        List<ScriptCall> calls = new ArrayList<>();
        for (Watch watch : watched) {
            if (watch.dueAt - now <= 0 && !watch.cancelled) {
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
        List<Watch> refused = new ArrayList<>();
        for (int i = 0; i < due.size(); i++) {
            Watch watch = due.get(i);
            if (LockScripts.held(replies.get(i))) {
                extended(watch, now);
            } else {
                refused.add(watch);
            }
        }
        if (!refused.isEmpty()) {
            judge(refused);
        }
    }

    /** Lost or cancelled: the task's cancelledBy names the execution whose task was cancelled (the notice may be lost). */
    private void judge(List<Watch> refused) {
        List<Response> cancelledBy = redis.batch(refused.stream()
                .map(w -> KeyedCommand.of(Command.HGET, keys.task(w.partition, w.claim.id())).arg("cancelledBy")).toList());
        for (int i = 0; i < refused.size(); i++) {
            Watch watch = refused.get(i);
            Response by = cancelledBy.get(i);
            if (by != null && watch.claim.token().equals(by.toString())) {
                cancel(watch);
            } else {
                lockLost(watch);
            }
        }
    }

    /** The one place where an execution learns its task was cancelled. */
    private void cancel(Watch watch) {
        if (watch.markCancelled()) {
            LOG.infof("queue %s: task %s (token %s) was cancelled; its handler is interrupted and its outcome will be "
                    + "discarded", watch.partition, watch.claim.id(), watch.claim.token());
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
