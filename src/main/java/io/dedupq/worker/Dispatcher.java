package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.RedisCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The loop of one queue: waits for a free handler slot, claims as many tasks as there are free
 * slots (up to the batch size), and hands them to the queue's bounded handler pool. With
 * pending empty it blocks on BLMOVE rather than polling. It runs on its own thread, never on
 * the Vert.x event loop.
 */
public class Dispatcher implements Refill {

    private static final Logger LOG = Logger.getLogger(Dispatcher.class);
    private static final Backoff ERROR_BACKOFF = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5));
    private static final Duration HEARTBEAT_WAIT = Duration.ofMillis(100);
    private static final Duration RECOVERY_EVERY = Duration.ofMinutes(1);

    private final String queue;
    private final DedupqConfig.QueueConfig settings;
    private final Claimer claimer;
    private final TaskRunner runner;
    private final Finisher finisher;
    private final Semaphore slots;
    private final ExecutorService handlers;
    /** Where handlers that never block run: the worker's event loop. */
    private final Executor eventLoop;
    private final Set<Claim> running = ConcurrentHashMap.newKeySet();
    private final Thread loop;
    private volatile boolean claiming = true;
    private volatile boolean finishing = true;
    private volatile boolean needsRecovery = true;
    /** Refills sent and not answered yet, and a sweep of own copies under way: see {@link #reserve}. */
    private final AtomicInteger refillsInFlight = new AtomicInteger();
    private volatile boolean sweeping;
    /**
     * Slots a refill gave to its claims before the outcomes that freed them gave them back: that
     * many of the next slot releases are not released (see {@link #reserve}).
     */
    private final AtomicInteger handedOver = new AtomicInteger();
    private volatile long lastRecovery;
    private volatile long lastTurn = System.nanoTime();

    public Dispatcher(String queue, DedupqConfig.QueueConfig settings, Claimer claimer, TaskRunner runner,
            Finisher finisher, Executor eventLoop) {
        this.queue = queue;
        this.eventLoop = eventLoop;
        this.finisher = finisher;
        this.settings = settings;
        this.claimer = claimer;
        this.runner = runner;
        this.slots = new Semaphore(settings.concurrency());
        AtomicInteger n = new AtomicInteger();
        this.handlers = Executors.newFixedThreadPool(settings.concurrency(), r -> {
            Thread t = new Thread(r, "dedupq-" + queue + "-handler-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.loop = new Thread(this::run, "dedupq-" + queue + "-dispatcher");
        this.loop.setDaemon(true);
    }

    public String queue() {
        return queue;
    }

    public void start() {
        finisher.openLane(queue, this);
        loop.start();
    }

    /**
     * True when the loop died, or neither it nor a refill has come round for longer than
     * {@code limit}: every handler slot held by handlers that do not return, or a call that
     * never ends. Liveness reports it; after {@link #stopClaiming()} the loop ends on purpose and
     * is never stalled.
     */
    public boolean stalled(Duration limit) {
        return claiming && (!loop.isAlive() || System.nanoTime() - lastTurn > limit.toNanos());
    }

    /**
     * Stops claiming. A BLMOVE under way is not cut short (Redis would still move a copy into
     * our list); the loop ends when it returns, within the block timeout, and a copy it brings
     * is claimed and run like any other.
     */
    public void stopClaiming() {
        claiming = false;
    }

    /**
     * Waits until {@code deadline} (nanotime) for running handlers and the recording of their
     * outcomes; true when all finished.
     */
    public boolean awaitHandlers(long deadline) throws InterruptedException {
        loop.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        handlers.shutdown();
        // every slot back means no handler runs and no outcome waits (the loop no longer takes any)
        return slots.tryAcquire(settings.concurrency(), Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** Gives up on what still runs: outcome writes stop retrying, handler threads are interrupted. */
    public void abandon() {
        finishing = false;
        handlers.shutdownNow();
    }

    private void run() {
        int failures = 0;
        while (claiming) {
            lastTurn = System.nanoTime();
            if (sweepDue()) {
                recoverOwnCopies();
            }
            int held = 0;
            try {
                slots.acquire();
                held = 1;
                if (!claiming) {
                    return;
                }
                while (held < settings.batch() && slots.tryAcquire()) {
                    held++;
                }
                Claimer.Claimed claimed = claimer.claim(queue, held, null);
                if (!claimed.registered()) {
                    // no fresh heartbeat yet (starting, or back from a long pause), or Redis evicts: wait
                    pause(HEARTBEAT_WAIT);
                    continue;
                }
                if (claimed.claims().isEmpty() && claiming) {
                    String moved = claimer.awaitNext(queue);
                    if (moved != null) {
                        claimed = claimer.claim(queue, held, moved);
                    }
                }
                for (Claim claim : claimed.claims()) {
                    if (start(claim)) {
                        held--;
                    }
                }
                failures = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (!claiming) {
                    return;
                }
                LOG.warnf("queue %s: claiming failed (%s); backing off", queue, e.getMessage());
                pause(ERROR_BACKOFF.delay(failures++));
                needsRecovery = true;
            } finally {
                slots.release(held);
            }
        }
    }

    /**
     * The finisher records a group of outcomes and, in the same pipeline, claims up to as many
     * tasks as the group frees slots. Each claim takes over the slot of a finished task: the
     * claims start first and as many of the group's slot releases, which follow at once, are
     * skipped. Not while claiming is stopped or a sweep of own copies is due (after a failure,
     * and once a minute even under an endless backlog): the freed slots then go back to the loop,
     * which sweeps at its next turn. A sweep waits until no refill is in flight, so that it never
     * takes a copy just claimed but not yet running for an orphan.
     */
    @Override
    public int reserve(int freed) {
        if (!claiming || sweepDue()) {
            return 0;
        }
        // paired with recoverOwnCopies: it raises sweeping, then reads refillsInFlight
        refillsInFlight.incrementAndGet();
        if (sweeping) {
            refillsInFlight.decrementAndGet();
            return 0;
        }
        // under a backlog the slots pass through refills and the loop may wait for one all along:
        // a refill is the queue coming round as much as a turn of the loop is
        lastTurn = System.nanoTime();
        return freed;
    }

    @Override
    public void claimed(List<Claim> claims) {
        try {
            for (Claim claim : claims) {
                handedOver.incrementAndGet();
                if (!start(claim)) {
                    handedOver.decrementAndGet();
                }
            }
        } finally {
            refillsInFlight.decrementAndGet();
        }
    }

    @Override
    public void failed() {
        needsRecovery = true;
        refillsInFlight.decrementAndGet();
    }

    private boolean sweepDue() {
        return needsRecovery || System.nanoTime() - lastRecovery > RECOVERY_EVERY.toNanos();
    }

    /**
     * Hands the claim to a handler thread, or to the event loop when its handler never blocks;
     * false once the handlers are shut down (a refill at the very end), when the copy stays in
     * our list for the shutdown to requeue.
     */
    private boolean start(Claim claim) {
        running.add(claim);
        try {
            if (runner.blocking(claim)) {
                handlers.execute(() -> execute(claim));
            } else if (handlers.isShutdown()) {
                throw new RejectedExecutionException("queue " + queue + " is shut down");
            } else {
                eventLoop.execute(() -> execute(claim));
            }
            return true;
        } catch (RejectedExecutionException e) {
            running.remove(claim);
            return false;
        }
    }

    /**
     * Runs the claim on a handler thread. Its slot is given back once the outcome is recorded,
     * not when the handler returns: the copy is in our processing list until then.
     */
    private void execute(Claim claim) {
        CompletableFuture<Void> recorded;
        try {
            recorded = runner.run(queue, claim, () -> finishing);
        } catch (RuntimeException | Error e) {
            recorded = CompletableFuture.failedFuture(e);
        }
        recorded.whenComplete((done, failure) -> {
            if (failure != null) {
                // the copy stays in our list with our lock; the next turn's sweep requeues it
                needsRecovery = true;
                LOG.errorf(failure, "queue %s: outcome of task %s was not recorded; its copy goes back to pending",
                        queue, claim.id());
            }
            running.remove(claim);
            if (handedOver.getAndUpdate(n -> n > 0 ? n - 1 : 0) == 0) {
                slots.release();
            }
        });
    }

    /**
     * After a failed call a reply may have been lost, leaving a copy in our processing list that
     * nothing runs (and maybe a lock of ours on it); an outcome that could not be recorded does
     * the same. Such copies go back to pending rather than waiting for this worker to die: after
     * every failure until a sweep succeeds, and every minute in case one was missed.
     */
    private void recoverOwnCopies() {
        sweeping = true;
        try {
            if (!refillsAnswered()) {
                return;
            }
            Map<String, Integer> inFlight = new HashMap<>();
            List<String> tokens = new ArrayList<>();
            for (Claim claim : running) {
                inFlight.merge(claim.envelope(), 1, Integer::sum);
                tokens.add(claim.token());
            }
            List<String> orphans = new ArrayList<>();
            for (String copy : claimer.processing(queue)) {
                if (inFlight.merge(copy, -1, Integer::sum) < 0) {
                    orphans.add(copy);
                }
            }
            long moved = claimer.requeue(queue, orphans, tokens);
            if (moved > 0) {
                LOG.infof("queue %s: requeued %d copies that nothing here was running", queue, moved);
            }
            needsRecovery = false;
            lastRecovery = System.nanoTime();
        } catch (RuntimeException e) {
            LOG.debugf("queue %s: recovery of own copies postponed: %s", queue, e.getMessage());
        } finally {
            sweeping = false;
        }
    }

    /** Waits (a reply timeout at most) until no refill is in flight; false if one still is. */
    private boolean refillsAnswered() {
        long deadline = System.nanoTime() + RedisCalls.REPLY_TIMEOUT.plusSeconds(1).toNanos();
        while (refillsInFlight.get() > 0) {
            if (System.nanoTime() > deadline) {
                LOG.debugf("queue %s: recovery of own copies postponed: a refill is still in flight", queue);
                return false;
            }
            pause(Duration.ofMillis(1));
        }
        return true;
    }

    private static void pause(Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
