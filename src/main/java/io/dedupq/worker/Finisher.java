package io.dedupq.worker;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.StoreUnavailableException;
import io.dedupq.queue.TaskStatus;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * Records the outcome of one execution with complete.lua. While Redis is unreachable the
 * outcome is retried with backoff (the handler already ran; its outcome must not be lost),
 * until it lands or the worker gives up at shutdown, when the copy is requeued instead.
 */
@ApplicationScoped
public class Finisher {

    private static final Logger LOG = Logger.getLogger(Finisher.class);
    private static final Backoff RETRY = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5));

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final WorkerIdentity worker;
    private final QueuePartitions partitions;
    private final Clock clock;

    public Finisher(RedisCalls redis, RedisKeys keys, WorkerIdentity worker, QueuePartitions partitions, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.worker = worker;
        this.partitions = partitions;
        this.clock = clock;
    }

    /**
     * @param detail  the result JSON (succeeded, may be empty) or the error message
     * @param next    retrying: the next envelope; failed/dead: the dead-letter record
     * @param dueAt   retrying: when the next attempt is due (ms)
     * @return true when recorded, false when this execution had lost the task to a newer one
     */
    public boolean finish(String queue, Claim claim, TaskStatus outcome, String detail, String next, long dueAt,
            BooleanSupplier keepTrying) {
        String id = claim.id();
        List<String> keyList = List.of(keys.processing(queue, worker.id()), keys.lock(queue, id), keys.done(queue, id),
                keys.task(queue, id), keys.stats(queue), keys.delayed(queue), keys.dead(queue));
        for (int attempt = 0; ; attempt++) {
            List<String> args = List.of(claim.envelope(), claim.token(), Long.toString(clock.millis()), outcome.wire(),
                    Long.toString(partitions.settings(queue).dedupWindow().toMillis()), detail,
                    next == null ? "" : next, Long.toString(dueAt), worker.id());
            try {
                return redis.script(LuaScript.COMPLETE, keyList, args).toInteger() == 1;
            } catch (StoreUnavailableException e) {
                if (!keepTrying.getAsBoolean()) {
                    throw e;
                }
                LOG.warnf("cannot record %s of task %s on queue %s yet (%s); retrying", outcome.wire(), id, queue,
                        e.getMessage());
                sleep(RETRY.delay(attempt));
            }
        }
    }

    private static void sleep(Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while recording an outcome", e);
        }
    }
}
