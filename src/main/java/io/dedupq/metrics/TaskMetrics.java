package io.dedupq.metrics;

import io.dedupq.queue.Envelope;
import io.dedupq.queue.Partition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The counters and timers of this process, exported on /q/metrics. Each is counted where it
 * happens, so they are per pod and add up across pods. Tags: {@code queue} and {@code type}
 * on every one ({@value #UNKNOWN_TYPE} where the envelope could not be read); {@code queue} is
 * the partition's name ({@link Partition#name()}) on all but {@code dedupq.tasks.enqueued}.
 */
@ApplicationScoped
public class TaskMetrics {

    /** The type tag of an entry whose envelope could not be read. */
    public static final String UNKNOWN_TYPE = "unknown";

    private final MeterRegistry registry;
    private final Clock clock;
    /**
     * Meters already registered, by name and tag values: registering through a builder sorts
     * tags and looks the meter up in the registry, which cost more than the rest of a no-op
     * task's bookkeeping together.
     */
    private final Map<MeterKey, Counter> counters = new ConcurrentHashMap<>();
    private final Map<MeterKey, Timer> timers = new ConcurrentHashMap<>();

    /** A meter's name and tags: queue, type and, for some, one more ({@code tag} = {@code value}). */
    private record MeterKey(String name, String queue, String type, String tag, String value) {

        MeterKey(String name, String queue, String type) {
            this(name, queue, type, null, null);
        }

        Tags tags() {
            Tags tags = Tags.of("queue", queue, "type", type);
            return tag == null ? tags : tags.and(tag, value);
        }
    }

    public TaskMetrics(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
    }

    /** Tasks accepted by enqueue.lua (duplicates and conflicts are not counted). */
    public void enqueued(String queue, String type, long tasks) {
        count("dedupq.tasks.enqueued", queue, type, tasks);
    }

    /** A copy claim.lua dropped without running it, for {@code reason} done, locked or stale. */
    public void skipped(Partition partition, String type, String reason) {
        counter(new MeterKey("dedupq.duplicates.skipped", partition.name(), typeTag(type), "reason", reason),
                "copies dropped by claim.lua without running (done, locked or stale)").increment();
    }

    /** Entries claim.lua dead-lettered because they were no task envelope. */
    public void unparseable(Partition partition, long entries) {
        count("dedupq.tasks.dead.lettered", partition.name(), UNKNOWN_TYPE, entries);
    }

    /** A claimed copy starts to run; for a first attempt, how long it waited since it was enqueued. */
    public void started(Partition partition, Envelope envelope) {
        String type = envelope == null ? UNKNOWN_TYPE : envelope.type();
        count("dedupq.tasks.executed", partition.name(), type, 1);
        if (envelope != null && envelope.attempt() == 0 && envelope.enqueuedAt() > 0) {
            // clocks of the enqueuing and the running pod may differ a little: never negative
            timer("dedupq.tasks.start.latency", partition.name(), type, "from enqueue to the start of the first attempt")
                    .record(Math.max(0, clock.millis() - envelope.enqueuedAt()), TimeUnit.MILLISECONDS);
        }
    }

    /** Runs the handler and records how long it took, whatever it threw. */
    public <T> T timeHandler(Partition partition, String type, Callable<T> handler) throws Exception {
        long started = System.nanoTime();
        try {
            return handler.call();
        } finally {
            timer("dedupq.handler.duration", partition.name(), type, "time spent in the handler")
                    .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * The outcome claim.lua was asked to record. Not recorded means a newer execution owned
     * the task: a lost lock, counted here unless the watchdog already counted this execution
     * ({@code lossCounted}); nothing else is counted.
     */
    public void finished(Partition partition, String type, String outcome, boolean recorded, boolean lossCounted) {
        if (!recorded) {
            if (!lossCounted) {
                lockLost(partition, type, "complete");
            }
            return;
        }
        switch (outcome) {
            case "succeeded" -> count("dedupq.tasks.succeeded", partition.name(), type, 1);
            case "retrying" -> count("dedupq.tasks.retried", partition.name(), type, 1);
            default -> {
                // failed (permanent, invalid) or dead (attempts used up): both go to the dead list
                count("dedupq.tasks.failed", partition.name(), type, 1);
                count("dedupq.tasks.dead.lettered", partition.name(), type, 1);
            }
        }
    }

    /** An execution whose task was cancelled while it ran reported its outcome, which was discarded. */
    public void cancelledWhileRunning(Partition partition, String type) {
        count("dedupq.tasks.cancelled.running", partition.name(), type, 1);
    }

    /** The watchdog extended a running execution's lock. */
    public void lockExtended(Partition partition, String type) {
        count("dedupq.locks.extended", partition.name(), type, 1);
    }

    /**
     * An execution lost its lock (it expired, or a newer execution took the task). Counted once
     * per execution, by whoever sees it first: the watchdog when an extension is refused while
     * the handler runs, else claim.lua refusing the outcome.
     */
    public void lockLost(Partition partition, String type, String detectedBy) {
        counter(new MeterKey("dedupq.locks.lost", partition.name(), typeTag(type), "detected_by", detectedBy),
                "executions that lost their lock, once each, by the first to see it").increment();
    }

    /** Copies of a dead worker the reaper put back on pending, one type per copy. */
    public void reaped(Partition partition, List<String> types) {
        types.stream().collect(Collectors.groupingBy(TaskMetrics::typeTag, Collectors.counting()))
                .forEach((type, copies) -> count("dedupq.tasks.reaped", partition.name(), type, copies));
    }

    private void count(String name, String queue, String type, long n) {
        if (n > 0) {
            counter(new MeterKey(name, queue, typeTag(type)), null).increment(n);
        }
    }

    private Counter counter(MeterKey key, String description) {
        return counters.computeIfAbsent(key,
                k -> Counter.builder(k.name()).tags(k.tags()).description(description).register(registry));
    }

    private static String typeTag(String type) {
        return type == null || type.isEmpty() ? UNKNOWN_TYPE : type;
    }

    private Timer timer(String name, String queue, String type, String description) {
        return timers.computeIfAbsent(new MeterKey(name, queue, type),
                k -> Timer.builder(k.name()).tags(k.tags()).description(description)
                        .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                        .maximumExpectedValue(Duration.ofMinutes(10)).register(registry));
    }
}
