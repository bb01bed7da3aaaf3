package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.health.RedisMemory;
import io.dedupq.metrics.TaskMetrics;
import io.dedupq.queue.EventLoopRedis;
import io.dedupq.queue.KeyedCommand;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisGateway;
import io.dedupq.queue.RedisFullException;
import io.dedupq.queue.RedisKeys;
import io.vertx.core.Future;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The one owner of a queue partition on this worker. It holds the partition's handler slots and
 * makes every claim, on the worker's event loop ({@link EventLoopRedis}): each call of claim.lua
 * records the outcomes that are waiting and claims as many tasks as there are free slots, the
 * slots of those outcomes included, so the slots pass from finished tasks to new ones in one
 * round trip (BullMQ's moveToFinished, which returns the next job); the tasks it claims start
 * once its reply is in, when the outcomes are recorded. With pending
 * empty it blocks on BLMOVE (one call at a time), and outcomes keep going out meanwhile.
 * Handlers that block run on the partition's handler threads, the others on the loop; either way
 * the outcome comes back to the loop, and the slot is free once the outcome is recorded: the
 * copy is in the processing list until then.
 *
 * <p>Everything but the three flags read by other threads ({@link #claiming}, {@link #finishing},
 * {@link #lastTurn}) is touched on the loop only, so the slot count is a plain int. Up to
 * {@value #MAX_IN_FLIGHT} calls are in flight, so that Redis runs one while the loop reads
 * another's reply; outcomes that arrive meanwhile go together in the next call.
 *
 * <p>A call that fails may have claimed copies whose reply is lost: they sit in this worker's
 * processing list with nothing running them. Then (and once a minute in case one was missed)
 * the owner sweeps: with no claim in flight it reads the list and requeues every copy that it
 * does not run. Outcomes of a failed call are sent again with backoff until they land (the
 * handlers ran; claim.lua recognises an outcome it already recorded) or shutdown gives up on
 * them, when their copies are requeued instead.
 *
 * <p>With {@code dedupq.durability.replicas} N above 0, each call is followed by WAIT N on its
 * connection, and a call that fewer replicas acknowledged in time counts as failed: a failover
 * could still undo it. Its outcomes stay this owner's, with their slots and copies, and go again
 * until a call carrying them is acknowledged, so a recorded outcome survives a failover as an
 * acknowledged enqueue does; its claims never start, and the sweep requeues them. A task thus
 * starts only after its claim is on N replicas, and with it everything written before it.
 */
public final class PartitionOwner {

    private static final Logger LOG = Logger.getLogger(PartitionOwner.class);
    private static final Backoff ERROR_BACKOFF = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5));
    private static final Duration HEARTBEAT_WAIT = Duration.ofMillis(100);
    private static final Duration SWEEP_EVERY = Duration.ofMinutes(1);
    /** Most outcomes in one call: bounds the script's run time and the reply. */
    static final int MAX_GROUP = 256;
    static final int MAX_IN_FLIGHT = 2;

    private final Partition partition;
    private final DedupqConfig.QueueConfig settings;
    /** dedupq.durability: replicas that must acknowledge each call (0: no WAIT), and how long to wait. */
    private final DedupqConfig.Durability durability;
    private final Collaborators with;
    private final ExecutorService handlers;

    /**
     * Slots neither running a task, nor waiting for its outcome to be recorded, nor reserved by a
     * claim in flight; below zero while a call in flight claims for the slots its own outcomes free.
     */
    private int free;
    private final Map<String, Claim> running = new HashMap<>();
    private final ArrayDeque<Outcome> outbox = new ArrayDeque<>();
    /** Outcomes from any thread, moved to {@link #outbox} on the loop; one drain queued at a time. */
    private final Queue<Outcome> arrivals = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private int callsInFlight;
    private int claimsInFlight;
    private boolean blocking;
    private boolean drained;
    /**
     * The queue has a group limit: a BLMOVE that brings nothing is followed by a claim call, since
     * only a claim takes the copies parked for a group whose slot freed without an outcome here.
     */
    private final boolean grouped;
    /** When a parked group's rate window frees (ms from the last claim), 0 if none. */
    private long parkedWaitMillis;
    /** A backoff or heartbeat wait is under way: nothing is sent until its timer fires. */
    private final Pause waiting = new Pause();
    /** Redis refused a claim for want of memory: outcomes go on alone until the backoff passes. */
    private final Pause claimsHeld = new Pause();
    /** The queue is paused or its rate window full (claim.lua said so): outcomes go on alone until the wait passes. */
    private final Pause throttled = new Pause();
    private int failures;
    private boolean sweepWanted = true;
    private boolean sweeping;
    private long lastSweep;
    private boolean memoryCheckUnderWay;
    private final CompletableFuture<Void> idle = new CompletableFuture<>();

    private volatile boolean claiming = true;
    private volatile boolean finishing = true;
    private volatile long lastTurn = System.nanoTime();

    /** The beans an owner works with, shared by the owners of all partitions. */
    public record Collaborators(EventLoopRedis loop, RedisKeys keys, WorkerIdentity worker, DedupqConfig config,
            TaskRunner runner, Requeuer requeuer, TaskMetrics metrics, RedisMemory memory) {
    }

    public PartitionOwner(Partition partition, DedupqConfig.QueueConfig settings, Collaborators with) {
        this.partition = partition;
        this.settings = settings;
        this.durability = with.config().durability();
        this.with = with;
        this.free = settings.concurrency();
        this.grouped = settings.groupConcurrency() > 0 || settings.groupRateLimit().isPresent();
        AtomicInteger n = new AtomicInteger();
        this.handlers = Executors.newFixedThreadPool(settings.concurrency(), r -> {
            Thread t = new Thread(r, "dedupq-" + partition + "-handler-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public Partition partition() {
        return partition;
    }

    public void start() {
        with.loop().schedule(this::pump);
    }

    /**
     * True when claiming has not come round for longer than {@code limit}: every handler slot held
     * by handlers that do not return, or a call that never ends. Liveness reports it; after
     * {@link #stopClaiming()} an owner is never stalled.
     */
    public boolean stalled(Duration limit) {
        return claiming && System.nanoTime() - lastTurn > limit.toNanos();
    }

    /**
     * Stops claiming. A BLMOVE under way is not cut short (Redis would still move a copy into our
     * list); the copy it brings stays in the list for the shutdown to requeue.
     */
    public void stopClaiming() {
        claiming = false;
        with.loop().schedule(this::pump);
    }

    /**
     * Waits until {@code deadline} (nanotime) for running handlers, the recording of their
     * outcomes and a BLMOVE under way; true when all finished.
     */
    public boolean awaitHandlers(long deadline) throws InterruptedException {
        try {
            idle.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            handlers.shutdown();
        }
    }

    /** Gives up on what still runs: outcome writes stop retrying, handler threads are interrupted. */
    public void abandon() {
        finishing = false;
        handlers.shutdownNow();
        with.loop().schedule(this::pump);
    }

    /** Called from any thread with the outcome of a task this owner started. */
    private void finished(Outcome outcome) {
        arrivals.add(outcome);
        if (drainQueued.compareAndSet(false, true)) {
            // queued even on the loop: what the loop's current task finishes goes in one call
            with.loop().schedule(this::drainArrivals);
        }
    }

    private void drainArrivals() {
        drainQueued.set(false);
        for (Outcome o; (o = arrivals.poll()) != null; ) {
            outbox.add(o);
        }
        pump();
    }

    /** Sends what can be sent now; runs on the loop after every event that may allow more. */
    private void pump() {
        if (!finishing) {
            giveUpOnOutbox();
        }
        if (sweepDue() && !sweeping && claimsInFlight == 0 && !blocking && !waiting.on()) {
            sweep();
            return;
        }
        while (!waiting.on() && callsInFlight < MAX_IN_FLIGHT) {
            // what waits is spread over the free calls: Redis runs one while the loop reads another's reply
            int size = Math.min(MAX_GROUP, (outbox.size() + MAX_IN_FLIGHT - callsInFlight - 1)
                    / (MAX_IN_FLIGHT - callsInFlight));
            int claim = claimable(size);
            if (size == 0 && claim == 0) {
                break;
            }
            List<Outcome> group = new ArrayList<>(size);
            while (group.size() < size && !outbox.isEmpty()) {
                group.add(outbox.poll());
            }
            free -= claim;
            send(group, claim, null);
        }
        if (drained && free > 0 && claiming && !claimsHeld.on() && !throttled.on() && !blocking && claimsInFlight == 0 && !waiting.on()
                && !sweepDue() && claimsAllowed()) {
            block();
        }
        if (free > 0) {
            // a free slot: whatever else holds this owner up, it is not handlers that never return
            lastTurn = System.nanoTime();
            if (claiming && callsInFlight == 0 && !blocking && !waiting.on() && !sweeping && !throttled.on()) {
                // nothing under way that will call back (Redis evicts, say): look again shortly
                waiting.start(HEARTBEAT_WAIT);
            }
        }
        if (!claiming && callsInFlight == 0 && !blocking && !sweeping && outbox.isEmpty() && arrivals.isEmpty()
                && running.isEmpty()) {
            idle.complete(null);
        }
    }

    /**
     * How many tasks the next call, carrying {@code outcomes}, may claim: the free slots and those
     * its outcomes free; 0 while stopping, waiting, sweeping or out of slots. A call without
     * outcomes claims only while pending is not known to be empty (then BLMOVE waits); one with
     * outcomes always asks, which costs claim.lua one empty LMOVE.
     */
    private int claimable(int outcomes) {
        int slots = free + outcomes;
        if (!claiming || claimsHeld.on() || throttled.on() || slots <= 0 || sweepDue() || (drained && outcomes == 0)
                || !claimsAllowed()) {
            return 0;
        }
        return Math.min(slots, settings.batch());
    }

    private void send(List<Outcome> group, int claim, String moved) {
        callsInFlight++;
        if (claim > 0) {
            claimsInFlight++;
            lastTurn = System.nanoTime();
        }
        ClaimScript.Call call = new ClaimScript.Call(partition, with.worker().id(), claim, moved,
                settings.lockTtl().toMillis(), with.config().worker().heartbeatExpiry().toMillis() / 2,
                settings.dedupWindow().toMillis(), DedupqConfig.QueueConfig.retention(settings).toMillis(),
                settings.dedupBuckets(), group,
                settings.rateLimit().orElse(null), settings.groupConcurrency(), settings.priorityOrder(),
                settings.groupRateLimit().orElse(null));
        // with dedupq.durability.replicas, WAIT follows on the call's connection, and a call fewer
        // replicas acknowledged fails like any other: a failover may still undo it
        with.loop().script(call.script(with.keys()), durability.replicas(), durability.replicaTimeout()).onComplete(sent -> {
            callsInFlight--;
            if (claim > 0) {
                claimsInFlight--;
            }
            ClaimScript.Reply reply = null;
            Throwable failure = sent.cause();
            if (sent.succeeded()) {
                try {
                    reply = ClaimScript.Reply.read(Response.newInstance(sent.result()));
                } catch (RuntimeException e) {
                    failure = e;
                }
            }
            if (reply != null) {
                answered(group, claim, reply);
            } else {
                failed(group, claim, failure);
            }
            pump();
        });
    }

    private void answered(List<Outcome> group, int claim, ClaimScript.Reply reply) {
        failures = 0;
        for (int i = 0; i < group.size(); i++) {
            release(group.get(i));
            with.runner().recorded(partition, group.get(i), reply.recorded().get(i));
        }
        if (!reply.drained()) {
            // also after outcomes alone: one freed a group's slot that a parked copy waits for
            drained = false;
        }
        if (claim == 0) {
            return;
        }
        lastTurn = System.nanoTime();
        reply.dropped().forEach(d -> with.metrics().skipped(partition, d.type(), d.reason()));
        with.metrics().unparseable(partition, reply.deadLettered());
        free += claim - reply.claims().size();
        if (!reply.registered()) {
            // no fresh heartbeat yet (starting, or back from a long pause): wait for the next beat
            waiting.start(HEARTBEAT_WAIT);
            return;
        }
        drained = reply.drained();
        reply.claims().forEach(this::start);
        hold(reply.held());
    }

    /**
     * Claims wait while the queue is paused (looked at again after a block timeout, so a resume is
     * seen within one claim cycle) or until its rate window has room; claim.lua, not BLMOVE, asks
     * next, as BLMOVE would take a copy only to give it back.
     */
    private void hold(ClaimScript.Held held) {
        parkedWaitMillis = held.by() == ClaimScript.HeldBy.PARKED ? held.waitMillis() : 0;
        switch (held.by()) {
            case NONE, PARKED -> {
                return;
            }
            case PAUSED -> throttled.start(with.config().worker().blockTimeout());
            case RATE -> throttled.start(Duration.ofMillis(held.waitMillis()));
        }
        drained = false;
    }

    private void failed(List<Outcome> group, int claim, Throwable failure) {
        LOG.warnf("queue %s: claim.lua failed (%s); backing off", partition, failure.getMessage());
        if (claim > 0) {
            free += claim;
            // the reply may be lost with copies of ours in it; or it came but not replicated, and its
            // copies do not start: after a failover the task may be pending again, another worker's
            sweepWanted = true;
        }
        // in front of what came later, in their order
        for (int i = group.size() - 1; i >= 0; i--) {
            outbox.addFirst(group.get(i));
        }
        Duration backoff = ERROR_BACKOFF.delay(failures++);
        if (failure instanceof RedisFullException && claim > 0) {
            // a full Redis refuses claim.lua at the claim's first write, before any outcome: the
            // outcomes go again at once without a claim, whose first write Redis never refuses
            claimsHeld.start(backoff);
        } else {
            waiting.start(backoff);
        }
    }

    /** At shutdown's end: outcomes that could not be recorded; their copies are requeued with the rest. */
    private void giveUpOnOutbox() {
        for (Outcome o; (o = outbox.poll()) != null; ) {
            LOG.errorf("queue %s: outcome of task %s was not recorded; its copy goes back to pending", partition,
                    o.claim().id());
            release(o);
        }
    }

    private void release(Outcome outcome) {
        running.remove(outcome.claim().token());
        free++;
    }

    /**
     * Hands the claim to a handler thread, or runs it on the loop when its handler never blocks.
     * Once the handlers are shut down (a claim answered at the very end) the copy stays in our
     * list for the shutdown to requeue.
     */
    private void start(Claim claim) {
        running.put(claim.token(), claim);
        Runnable execute = () -> finished(with.runner().run(partition, claim));
        try {
            if (with.runner().blocking(claim)) {
                handlers.execute(execute);
            } else if (handlers.isShutdown()) {
                throw new RejectedExecutionException("queue " + partition + " is shut down");
            } else {
                with.loop().schedule(execute);
            }
        } catch (RejectedExecutionException e) {
            running.remove(claim.token());
            free++;
        }
    }

    /**
     * Waits for one envelope with one slot; when it comes, claims it and as many more as slots are
     * free. It waits on the default priority level's list alone: enqueue.lua pushes a wake-up entry
     * there for a task of another level, and claim.lua then claims from every level.
     */
    private void block() {
        blocking = true;
        free--;
        lastTurn = System.nanoTime();
        Duration wait = with.config().worker().blockTimeout();
        if (parkedWaitMillis > 0 && parkedWaitMillis < wait.toMillis()) {
            // only time frees that parked group: BLMOVE must not sleep past it on an idle queue
            wait = Duration.ofMillis(parkedWaitMillis);
        }
        KeyedCommand blmove = KeyedCommand.of(Command.BLMOVE, with.keys().pending(partition))
                .arg(with.keys().processing(partition, with.worker().id())).arg("RIGHT").arg("LEFT")
                .arg(String.format(Locale.ROOT, "%.3f", wait.toMillis() / 1000.0));
        with.loop().send(blmove, wait.plus(RedisGateway.REPLY_TIMEOUT)).onComplete(moved -> {
            blocking = false;
            lastTurn = System.nanoTime();
            if (moved.failed()) {
                free++;
                // a lost reply may have moved a copy into our list
                sweepWanted = true;
                LOG.warnf("queue %s: BLMOVE failed (%s); backing off", partition, moved.cause().getMessage());
                waiting.start(ERROR_BACKOFF.delay(failures++));
            } else if (moved.result() == null || !claiming) {
                // nothing came, or we are stopping: a copy it brought is requeued by the shutdown
                free++;
                // a group slot may have freed without an outcome here (an expired lock, another
                // worker's outcome that a claim of its own did not follow): claim.lua looks
                drained = moved.result() == null && !grouped;
            } else {
                drained = false;
                // free is below zero while a call claims for the slots of its outcomes
                int extra = Math.max(0, Math.min(free, settings.batch() - 1));
                free -= extra;
                send(List.of(), 1 + extra, moved.result().toString());
            }
            pump();
        });
    }

    private boolean sweepDue() {
        return sweepWanted || System.nanoTime() - lastSweep > SWEEP_EVERY.toNanos();
    }

    /**
     * Requeues the copies in our processing list that nothing here runs. No claim is in flight,
     * so every copy we own is in {@link #running}, taken now: an outcome recorded meanwhile only
     * removes a copy the sweep leaves alone anyway.
     */
    private void sweep() {
        sweeping = true;
        Map<String, Integer> inFlight = new HashMap<>();
        List<String> tokens = new ArrayList<>();
        for (Claim claim : running.values()) {
            inFlight.merge(claim.envelope(), 1, Integer::sum);
            tokens.add(claim.token());
        }
        KeyedCommand list = KeyedCommand.of(Command.LRANGE, with.keys().processing(partition, with.worker().id())).arg(0).arg(-1);
        with.loop().send(list, RedisGateway.REPLY_TIMEOUT).compose(copies -> {
            List<String> orphans = new ArrayList<>();
            copies.forEach(copy -> {
                if (inFlight.merge(copy.toString(), -1, Integer::sum) < 0) {
                    orphans.add(copy.toString());
                }
            });
            return orphans.isEmpty() ? Future.succeededFuture(List.<String>of())
                    : with.loop().script(with.requeuer().given(partition, orphans, tokens))
                            .map(reply -> RequeueScript.Reply.read(Response.newInstance(reply)).types());
        }).onComplete(swept -> {
            sweeping = false;
            if (swept.succeeded()) {
                if (!swept.result().isEmpty()) {
                    LOG.infof("queue %s: requeued %d copies that nothing here was running", partition,
                            swept.result().size());
                }
                sweepWanted = false;
                lastSweep = System.nanoTime();
            } else {
                LOG.debugf("queue %s: sweep of own copies postponed: %s", partition, swept.cause().getMessage());
                waiting.start(ERROR_BACKOFF.delay(failures++));
            }
            pump();
        });
    }

    /**
     * False while Redis evicts ({@link RedisMemory#unsafe}), and before the policy was ever read:
     * then it is read on a handler thread (the loop never waits for Redis) and the owner asks again.
     */
    private boolean claimsAllowed() {
        if (with.memory().latest() != null) {
            return !with.memory().unsafe();
        }
        if (!memoryCheckUnderWay && !handlers.isShutdown()) {
            memoryCheckUnderWay = true;
            handlers.execute(() -> {
                try {
                    with.memory().check();
                } catch (RuntimeException e) {
                    LOG.debugf("queue %s: Redis memory policy not read yet: %s", partition, e.getMessage());
                }
                with.loop().schedule(() -> {
                    memoryCheckUnderWay = false;
                    if (with.memory().latest() == null) {
                        waiting.start(ERROR_BACKOFF.delay(failures++));
                    } else {
                        pump();
                    }
                });
            });
        }
        return false;
    }

    /** A flag that a timer clears, after which the owner pumps again; started at most once at a time. */
    private final class Pause {
        private boolean on;

        boolean on() {
            return on;
        }

        void start(Duration delay) {
            if (on) {
                return;
            }
            on = true;
            with.loop().later(delay.toMillis(), () -> {
                on = false;
                pump();
            });
        }
    }
}
