package io.dedupq.worker;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.dedupq.queue.ScriptNotLoadedException;
import io.dedupq.queue.StoreUnavailableException;
import io.dedupq.queue.TaskStatus;
import io.vertx.mutiny.redis.client.Response;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * Records outcomes with complete.lua, in groups: each queue has one lane, a thread that sends
 * whatever outcomes are waiting in one call. An outcome that finds the lane idle goes out at
 * once; those that arrive while a call is in flight go together in the next one. So a quiet
 * worker adds no delay and a busy one spends one round trip per group, not per task. The
 * handler's thread does not wait for it: it is free for the next task at once, while the copy
 * stays in the processing list and keeps its handler slot until the outcome is recorded. The
 * call that records a group also claims new tasks for the slots it frees ({@link Refill}).
 *
 * <p>While Redis is unreachable a group is sent again with backoff (the handlers already ran;
 * their outcomes must not be lost; complete.lua recognises an outcome it already recorded),
 * until it lands or the worker gives up at shutdown, when the copies are requeued instead.
 */
@ApplicationScoped
public class Finisher {

    private static final Logger LOG = Logger.getLogger(Finisher.class);
    private static final Backoff RETRY = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5));
    /** Most outcomes in one call: bounds the script's run time and the reply. */
    static final int MAX_GROUP = 256;

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final WorkerIdentity worker;
    private final QueuePartitions partitions;
    private final Clock clock;
    private final Claimer claimer;
    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();

    public Finisher(RedisCalls redis, RedisKeys keys, WorkerIdentity worker, QueuePartitions partitions, Clock clock,
            Claimer claimer) {
        this.claimer = claimer;
        this.redis = redis;
        this.keys = keys;
        this.worker = worker;
        this.partitions = partitions;
        this.clock = clock;
    }

    /** Ends the lanes' threads (after the worker pool has stopped, nothing is waiting). */
    @PreDestroy
    void stop() {
        lanes.values().forEach(lane -> lane.lane.stop());
    }

    /**
     * Opens the lane of {@code queue}, before its dispatcher starts: its outcomes are recorded
     * together with claims for {@code refill}.
     */
    void openLane(String queue, Refill refill) {
        lanes.compute(queue, (q, open) -> {
            if (open != null) {
                throw new IllegalStateException("queue " + q + " already has a dispatcher");
            }
            return new Lane(q, refill);
        });
    }

    /** One outcome waiting for its lane, and the answer to it. */
    private record Outcome(Claim claim, TaskStatus status, String detail, String next, long dueAt,
            BooleanSupplier keepTrying, CompletableFuture<Boolean> recorded) {
    }

    /**
     * @param detail  the result JSON (succeeded, may be empty) or the error message
     * @param next    retrying: the next envelope; failed/dead: the dead-letter record
     * @param dueAt   retrying: when the next attempt is due (ms)
     * @return completes on the lane's thread: true when recorded, false when this execution had
     *         lost the task to a newer one; exceptionally ({@link StoreUnavailableException}) when
     *         Redis failed and {@code keepTrying} said stop
     */
    public CompletableFuture<Boolean> finish(String queue, Claim claim, TaskStatus outcome, String detail, String next,
            long dueAt, BooleanSupplier keepTrying) {
        Outcome mine = new Outcome(claim, outcome, detail, next == null ? "" : next, dueAt, keepTrying,
                new CompletableFuture<>());
        Objects.requireNonNull(lanes.get(queue), () -> "no dispatcher runs queue " + queue).lane.add(mine);
        return mine.recorded;
    }

    /** The outcomes of one queue and the lane that sends them. */
    private final class Lane {

        private final String queue;
        private final Refill refill;
        private final GroupingLane<Outcome> lane;
        /**
         * complete.lua answered on this lane since the start or the last NOSCRIPT: only then is
         * a claim pipelined with it (a NOSCRIPT of the pair makes the dispatcher sweep its copies).
         */
        private boolean scriptLoaded;

        Lane(String queue, Refill refill) {
            this.queue = queue;
            this.refill = refill;
            this.lane = new GroupingLane<>("dedupq-" + queue + "-finisher", MAX_GROUP, this::send);
        }

        private void send(List<Outcome> group) {
            for (int attempt = 0; ; attempt++) {
                try {
                    Response replies = record(group);
                    for (int i = 0; i < group.size(); i++) {
                        group.get(i).recorded.complete(replies.get(i).toInteger() == 1);
                    }
                    return;
                } catch (StoreUnavailableException e) {
                    if (group.stream().anyMatch(o -> !o.keepTrying.getAsBoolean())) {
                        group.forEach(o -> o.recorded.completeExceptionally(e));
                        return;
                    }
                    LOG.warnf("cannot record %d outcomes on queue %s yet (%s); retrying", group.size(), queue,
                            e.getMessage());
                    pause(RETRY.delay(attempt));
                } catch (RuntimeException e) {
                    group.forEach(o -> o.recorded.completeExceptionally(e));
                    return;
                }
            }
        }

        /** complete.lua for the group, with the claim of the dispatcher's refill in the same pipeline. */
        private Response record(List<Outcome> group) {
            ScriptCall complete = new ScriptCall(LuaScript.COMPLETE,
                    List.of(keys.processing(queue, worker.id()), keys.stats(queue), keys.delayed(queue), keys.dead(queue)),
                    arguments(group));
            if (!scriptLoaded) {
                Response replies = redis.script(complete);
                scriptLoaded = true;
                return replies;
            }
            Response[] recorded = new Response[1];
            try {
                refill.refill(group.size(), wanted -> {
                    if (wanted == 0) {
                        recorded[0] = redis.script(complete);
                        return List.of();
                    }
                    List<Response> replies = redis.scriptsOnce(List.of(complete, claimer.call(queue, wanted, null)));
                    recorded[0] = replies.get(0);
                    return claimer.claimed(queue, replies.get(1)).claims();
                });
            } catch (ScriptNotLoadedException e) {
                scriptLoaded = false;
                // a restarted Redis: the claim may have run (the dispatcher sweeps its copies); complete.lua
                // recognises outcomes it already recorded, so it goes again on its own, loading the script
                return redis.script(complete);
            }
            return recorded[0];
        }

        private List<String> arguments(List<Outcome> group) {
            List<String> args = new ArrayList<>(4 + 7 * group.size());
            args.add(keys.base(queue));
            args.add(Long.toString(clock.millis()));
            args.add(Long.toString(partitions.settings(queue).dedupWindow().toMillis()));
            args.add(worker.id());
            for (Outcome o : group) {
                args.add(o.claim.id());
                args.add(o.claim.envelope());
                args.add(o.claim.token());
                args.add(o.status.wire());
                args.add(o.detail);
                args.add(o.next);
                args.add(Long.toString(o.dueAt));
            }
            return args;
        }

        private void pause(Duration delay) {
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
