package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.EventLoopRedis;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.dedupq.queue.StoreUnavailableException;
import io.dedupq.queue.TaskStatus;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
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
 * Records outcomes with complete.lua, in groups: each queue has one {@link LoopLane} on the
 * worker's event loop ({@link EventLoopRedis}), which sends whatever outcomes are waiting in one
 * call, with up to {@value #MAX_IN_FLIGHT} calls in flight. An outcome that finds room goes out
 * at once; those that arrive meanwhile go together in the next call. So a quiet worker adds no
 * delay and a busy one spends one round trip per group, not per task. The handler's thread does
 * not wait for it: it is free for the next task at once, while the copy stays in the processing
 * list and keeps its handler slot until the outcome is recorded. The call that records a group
 * also claims new tasks for the slots it frees ({@link Refill}), and its reply starts them.
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
    /** Calls of one lane in flight at once: the loop reads one reply while Redis runs the next call. */
    static final int MAX_IN_FLIGHT = 4;

    private final EventLoopRedis loop;
    private final RedisKeys keys;
    private final WorkerIdentity worker;
    private final QueuePartitions partitions;
    private final Claimer claimer;
    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();

    public Finisher(EventLoopRedis loop, RedisKeys keys, WorkerIdentity worker, QueuePartitions partitions,
            Claimer claimer) {
        this.loop = loop;
        this.keys = keys;
        this.worker = worker;
        this.partitions = partitions;
        this.claimer = claimer;
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
    private record Outcome(Claim claim, TaskStatus status, String detail, String next, long delay,
            BooleanSupplier keepTrying, CompletableFuture<Boolean> recorded) {
    }

    /**
     * @param detail  the result JSON (succeeded, may be empty) or the error message
     * @param next    retrying: the next envelope; failed/dead: the dead-letter record
     * @param delay   retrying: in how long the next attempt is due (ms); complete.lua adds it to Redis's clock
     * @return completes on the worker's event loop: true when recorded, false when this execution
     *         had lost the task to a newer one; exceptionally ({@link StoreUnavailableException})
     *         when Redis failed and {@code keepTrying} said stop
     */
    public CompletableFuture<Boolean> finish(String queue, Claim claim, TaskStatus outcome, String detail, String next,
            long delay, BooleanSupplier keepTrying) {
        Outcome mine = new Outcome(claim, outcome, detail, next == null ? "" : next, delay, keepTrying,
                new CompletableFuture<>());
        Objects.requireNonNull(lanes.get(queue), () -> "no dispatcher runs queue " + queue).lane.add(mine);
        return mine.recorded;
    }

    /** The outcomes of one queue and the lane that sends them; everything here runs on the loop. */
    private final class Lane {

        private final String queue;
        private final Refill refill;
        private final LoopLane<Outcome> lane;
        /**
         * complete.lua answered on this lane since the start or the last NOSCRIPT: only then is
         * a claim pipelined with it (a NOSCRIPT of the pair makes the dispatcher sweep its copies).
         */
        private boolean scriptLoaded;

        Lane(String queue, Refill refill) {
            this.queue = queue;
            this.refill = refill;
            this.lane = new LoopLane<>(loop, MAX_GROUP, MAX_IN_FLIGHT, group -> send(group, 0));
        }

        /** Completes once the group is recorded, or given up on. */
        private Future<Void> send(List<Outcome> group, int attempt) {
            Promise<Void> done = Promise.promise();
            record(group).onComplete(replied -> {
                if (replied.succeeded()) {
                    Response replies = replied.result();
                    for (int i = 0; i < group.size(); i++) {
                        group.get(i).recorded.complete(replies.get(i).toInteger() == 1);
                    }
                    done.complete();
                } else if (replied.cause() instanceof StoreUnavailableException unavailable
                        && group.stream().allMatch(o -> o.keepTrying.getAsBoolean())) {
                    LOG.warnf("cannot record %d outcomes on queue %s yet (%s); retrying", group.size(), queue,
                            unavailable.getMessage());
                    loop.later(RETRY.delay(attempt).toMillis(), () -> send(group, attempt + 1).onComplete(done));
                } else {
                    group.forEach(o -> o.recorded.completeExceptionally(replied.cause()));
                    done.complete();
                }
            });
            return done.future();
        }

        /**
         * complete.lua for the group, with the claim of the dispatcher's refill in the same
         * pipeline; the refill's claims start before the group's slots are given back.
         */
        private Future<Response> record(List<Outcome> group) {
            ScriptCall complete = new ScriptCall(LuaScript.COMPLETE,
                    List.of(keys.processing(queue, worker.id()), keys.stats(queue), keys.delayed(queue), keys.dead(queue)),
                    arguments(group));
            if (!scriptLoaded) {
                return completeAlone(complete).onSuccess(replies -> scriptLoaded = true);
            }
            int wanted = claimer.paused() ? 0 : refill.reserve(group.size());
            if (wanted == 0) {
                return completeAlone(complete);
            }
            ScriptCall claim = claimer.call(queue, wanted, null);
            return loop.batch(List.of(complete.evalsha().getDelegate(), claim.evalsha().getDelegate())).transform(sent -> {
                if (sent.succeeded()) {
                    List<Claim> claims;
                    try {
                        claims = claimer.claimed(queue, Response.newInstance(sent.result().get(1))).claims();
                    } catch (RuntimeException e) {
                        refill.failed();
                        throw e;
                    }
                    refill.claimed(claims);
                    return Future.succeededFuture(Response.newInstance(sent.result().get(0)));
                }
                // the reply may be lost with copies of ours in it: the dispatcher sweeps before it refills again
                refill.failed();
                if (RedisCalls.isNoScript(sent.cause())) {
                    // a restarted Redis: the claim may have run; complete.lua recognises outcomes it already
                    // recorded, so it goes again on its own, loading the script
                    scriptLoaded = false;
                    return completeAlone(complete);
                }
                return Future.failedFuture(sent.cause());
            });
        }

        private Future<Response> completeAlone(ScriptCall complete) {
            return loop.script(complete).map(Response::newInstance);
        }

        private List<String> arguments(List<Outcome> group) {
            List<String> args = new ArrayList<>(4 + 7 * group.size());
            args.add(keys.base(queue));
            args.add(Long.toString(partitions.settings(queue).dedupWindow().toMillis()));
            args.add(worker.id());
            args.add(Long.toString(DedupqConfig.QueueConfig.retention(partitions.settings(queue)).toMillis()));
            for (Outcome o : group) {
                args.add(o.claim.id());
                args.add(o.claim.envelope());
                args.add(o.claim.token());
                args.add(o.status.wire());
                args.add(o.detail);
                args.add(o.next);
                args.add(Long.toString(o.delay));
            }
            return args;
        }
    }
}
