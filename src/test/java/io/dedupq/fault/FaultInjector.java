package io.dedupq.fault;

import io.dedupq.config.RedisProcess;
import io.dedupq.support.AppJvm;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scripted faults of the run, each one step that waits for its conditions by polling:
 * a worker paused (SIGSTOP) while it runs payments, a worker stopped gracefully
 * (SIGTERM) while it holds copies, and a Redis crash and restart on the same AOF folder.
 */
final class FaultInjector {

    private static final Pattern ENVELOPE_ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    private static final List<String> QUEUES = List.of("payment", "voucher");

    private final WorkerFleet fleet;
    private final RedisProbe redis;
    private final Figures figures;

    FaultInjector(WorkerFleet fleet, RedisProbe redis, Figures figures) {
        this.fleet = fleet;
        this.redis = redis;
        this.figures = figures;
    }

    private static String processing(String queue, String workerId) {
        return RedisProbe.key(queue, "processing:" + workerId);
    }

    /**
     * Freezes a worker while it runs payments: copies in its processing list that it has
     * claimed (task status running, owned by it), checked again once it is frozen. Keeps it
     * frozen past the lock TTL until the reaper has moved its copies away and other workers
     * have finished those tasks, then lets it run on: each of its stale executions must end
     * with its outcome refused (the ledger, checked by the audit, refuses its debit).
     */
    List<String> pauseMidPayment() {
        AppJvm paused = null;
        List<String> held = List.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (paused == null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("found no worker running payments to pause within 60 s");
            }
            for (AppJvm candidate : fleet.available()) {
                if (!claimedPayments(candidate).isEmpty() && fleet.reserve(candidate)) {
                    candidate.pause();
                    AppJvm.sleep(500); // requests it sent just before the signal reach Redis first
                    held = claimedPayments(candidate);
                    if (!held.isEmpty()) {
                        paused = candidate;
                        break;
                    }
                    candidate.resume();
                    fleet.release(candidate);
                }
            }
            AppJvm.sleep(20);
        }
        long pausedAt = System.nanoTime();
        String workerId = paused.workerId();
        List<String> tasks = held;
        awaitCondition("the payments of paused " + paused + " " + tasks + " to be taken over and finished",
                Duration.ofSeconds(90), () -> System.nanoTime() - pausedAt > WorkerFleet.LOCK_TTL.toNanos()
                        && QUEUES.stream().allMatch(q -> redis.llen(processing(q, workerId)) == 0)
                        && tasks.stream().allMatch(id -> "succeeded".equals(paymentField(id, "status"))));
        long frozenMillis = (System.nanoTime() - pausedAt) / 1_000_000;
        paused.resume();
        AppJvm resumed = paused;
        List<String> problems = new ArrayList<>();
        try {
            awaitCondition("the stale executions of " + resumed + " " + tasks + " to be refused", Duration.ofSeconds(60),
                    () -> tasks.stream().allMatch(id -> refusal(resumed, id).isPresent()));
        } catch (AssertionError e) {
            for (String id : tasks) {
                if (refusal(resumed, id).isEmpty()) {
                    problems.add("stale execution of " + id + " on " + resumed + " was not refused: "
                            + outcomeLine(resumed, id).orElse("no outcome line"));
                }
            }
        }
        fleet.release(paused);
        System.out.println("SIGSTOP: " + paused + " frozen " + frozenMillis + " ms running payments " + tasks);
        figures.add("SIGSTOP of a worker mid-payment", 1);
        figures.add("  payments it was running (each taken over, its own outcome refused)", tasks.size());
        figures.add("  milliseconds it stayed frozen", frozenMillis);
        return problems;
    }

    /** Payment ids in the worker's processing list that it has claimed: status running, owned by it. */
    private List<String> claimedPayments(AppJvm worker) {
        return ids(redis.lrange(processing("payment", worker.workerId()))).stream()
                .filter(id -> "running".equals(paymentField(id, "status"))
                        && String.valueOf(paymentField(id, "token")).startsWith(worker.workerId() + ":"))
                .toList();
    }

    /** The last log line in which the worker reported the outcome of an execution of {@code taskId}. */
    private static Optional<String> outcomeLine(AppJvm worker, String taskId) {
        return worker.logLines().stream().filter(l -> l.contains("task=" + taskId + " ") && l.contains(" outcome="))
                .reduce((first, last) -> last);
    }

    /** The line in which the worker said that claim.lua refused an outcome of {@code taskId}. */
    private static Optional<String> refusal(AppJvm worker, String taskId) {
        return outcomeLine(worker, taskId).filter(line -> line.contains("not recorded"));
    }

    /**
     * SIGTERM to a worker that holds copies (or any worker, if none does within 20 s): it must
     * exit within the shutdown grace plus 5 s, by its graceful path, with its processing lists
     * empty. A replacement is started.
     */
    List<String> terminateUnderLoad() {
        List<String> problems = new ArrayList<>();
        AppJvm target = reserveBusyWorker(Duration.ofSeconds(20));
        List<Long> inFlight = QUEUES.stream().map(q -> redis.llen(processing(q, target.workerId()))).toList();
        long sent = System.nanoTime();
        target.terminate();
        // 5 s over the grace, as a pod's termination grace period (30 s) is over the default grace (25 s)
        Optional<Integer> exit = target.awaitExit(WorkerFleet.SHUTDOWN_GRACE.plusSeconds(5));
        long tookMillis = (System.nanoTime() - sent) / 1_000_000;
        figures.add("SIGTERM of a worker under load", 1);
        figures.add("  copies in its processing lists at SIGTERM", inFlight.stream().mapToLong(Long::longValue).sum());
        figures.add("  milliseconds until it exited", tookMillis);
        if (exit.isEmpty()) {
            problems.add(target + " still running " + tookMillis + " ms after SIGTERM");
            target.kill();
        } else if (exit.get() != 143) {
            // 143 = 128 + SIGTERM: the JVM ran its shutdown hooks (Quarkus shutdown) and ended
            problems.add(target + " exited with " + exit.get() + " after SIGTERM, not 143; see " + target.log());
        }
        if (target.logLines().stream().noneMatch(l -> l.contains("unfinished copies back on pending"))) {
            problems.add(target + " did not log its graceful stop (copies back on pending); see " + target.log());
        }
        for (String queue : QUEUES) {
            long left = redis.llen(processing(queue, target.workerId()));
            if (left != 0) {
                problems.add(target + " left " + left + " copies in its " + queue + " processing list after SIGTERM");
            }
        }
        fleet.release(target);
        fleet.launchWorker();
        figures.add("replacement workers started", 1);
        return problems;
    }

    private AppJvm reserveBusyWorker(Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < deadline) {
            for (AppJvm candidate : fleet.available()) {
                boolean busy = QUEUES.stream().anyMatch(q -> redis.llen(processing(q, candidate.workerId())) > 0);
                if (busy && fleet.reserve(candidate)) {
                    return candidate;
                }
            }
            AppJvm.sleep(20);
        }
        awaitCondition("a worker pod to be available", Duration.ofSeconds(60), () -> !fleet.available().isEmpty());
        return fleet.reserveRandom().orElseThrow();
    }

    /**
     * Crashes Redis (SIGKILL: no shutdown, no final AOF rewrite), keeps it down for {@code down}
     * and starts it again on the same port and AOF folder. Redis writes the AOF before it
     * replies, so every write a client saw acknowledged must come back.
     */
    void crashAndRestartRedis(RedisProcess server, Duration down) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-KILL", Long.toString(server.pid())).inheritIO().start().waitFor();
        awaitCondition("redis-server to die", Duration.ofSeconds(10), () -> !server.alive());
        AppJvm.sleep(down.toMillis());
        server.start();
        figures.add("Redis crashes (kill -9) and restarts on the same AOF", 1);
    }

    private String paymentField(String taskId, String field) {
        return redis.hgetAll(List.of(RedisProbe.key("payment", "task:" + taskId)), field).get(0);
    }

    static List<String> ids(List<String> envelopes) {
        List<String> ids = new ArrayList<>();
        for (String envelope : envelopes) {
            Matcher m = ENVELOPE_ID.matcher(envelope);
            if (m.find()) {
                ids.add(m.group(1));
            }
        }
        return ids;
    }

    static void awaitCondition(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            AppJvm.sleep(100);
        }
    }
}
