package io.dedupq.worker;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Writes running executions' progress to their task hashes (progress.lua), coalesced: at most
 * one write per second per execution, the latest value winning. A report inside the second
 * after a write waits for a trailing write at the second's end; the value still unwritten when
 * the handler returns is written then, before the outcome (on an event loop without waiting for
 * it). One execution's writes go out one after the other, so an older value never lands last.
 */
@ApplicationScoped
public class ProgressWriter {

    private static final Logger LOG = Logger.getLogger(ProgressWriter.class);
    /** Shortest time between two writes of one execution's progress. */
    static final long INTERVAL_MILLIS = 1000;

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final Vertx vertx;

    public ProgressWriter(RedisCalls redis, RedisKeys keys, Vertx vertx) {
        this.redis = redis;
        this.keys = keys;
        this.vertx = vertx;
    }

    /** The progress of the execution of {@code claim}; close it when the handler has returned. */
    public Reporter reporter(Partition partition, Claim claim) {
        return new Reporter(partition, claim);
    }

    /** One execution's progress: what waits to be written, and when the last write went. */
    public final class Reporter implements ExecutionContext.Progress, AutoCloseable {

        private final Partition partition;
        private final Claim claim;
        private ProgressScript.Call pending;
        /** System.nanoTime() of the last write; none yet allows one at once. */
        private long lastWrite = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(INTERVAL_MILLIS);
        /** The trailing write's Vert.x timer, or -1. */
        private long timer = -1;
        private boolean open = true;
        /** The last write sent: the next one goes after it. */
        private CompletableFuture<?> sent = CompletableFuture.completedFuture(null);

        private Reporter(Partition partition, Claim claim) {
            this.partition = partition;
            this.claim = claim;
        }

        @Override
        public synchronized void report(int percent, String note) {
            if (!open) {
                return;
            }
            pending = new ProgressScript.Call(partition, claim.id(), claim.token(), percent, note);
            if (timer >= 0) {
                // a trailing write is due; it takes this value
                return;
            }
            long wait = TimeUnit.NANOSECONDS.toMillis(lastWrite - System.nanoTime()) + INTERVAL_MILLIS;
            if (wait <= 0) {
                write(take());
            } else {
                timer = vertx.setTimer(wait, id -> trailing());
            }
        }

        private synchronized void trailing() {
            timer = -1;
            if (open && pending != null) {
                write(take());
            }
        }

        private ProgressScript.Call take() {
            ProgressScript.Call call = pending;
            pending = null;
            lastWrite = System.nanoTime();
            return call;
        }

        /** Sent after the previous write has been answered, whatever its answer. */
        private CompletableFuture<?> write(ProgressScript.Call call) {
            sent = sent.handle((reply, failure) -> null)
                    .thenCompose(v -> redis.scriptsAsync(List.of(call.script(keys))).subscribeAsCompletionStage())
                    .whenComplete((reply, failure) -> {
                        if (failure != null) {
                            // progress is informative: a lost write is not worth more than a line
                            LOG.debugf("queue %s: progress of task %s not written: %s", partition, claim.id(),
                                    failure.getMessage());
                        }
                    });
            return sent;
        }

        /** The handler returned: the value not written yet goes now; a handler thread waits for it. */
        @Override
        public void close() {
            CompletableFuture<?> last;
            synchronized (this) {
                open = false;
                if (timer >= 0) {
                    vertx.cancelTimer(timer);
                    timer = -1;
                }
                last = pending == null ? sent : write(take());
            }
            if (!Context.isOnEventLoopThread()) {
                last.handle((reply, failure) -> null).join();
            }
        }
    }
}
