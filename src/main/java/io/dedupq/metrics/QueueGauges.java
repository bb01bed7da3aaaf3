package io.dedupq.metrics;

import io.dedupq.handler.HandlerRegistry;
import io.dedupq.queue.QueueStats;
import io.dedupq.queue.TaskQueue;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToDoubleFunction;
import org.jboss.logging.Logger;

/**
 * Per-queue gauges read from a snapshot that is refreshed every
 * {@code dedupq.metrics.refresh-interval}, so a scrape never waits on Redis. The sizes and the
 * duplicate counts by reason are what Redis holds for the whole queue: every pod reports the
 * same values (aggregate with max, not sum). Once a refresh fails they read NaN until one
 * succeeds again, and {@code dedupq.queue.gauges.stale} reads 1: an old size presented as current
 * would mislead an alert or an autoscaler.
 */
@ApplicationScoped
public class QueueGauges {

    private static final Logger LOG = Logger.getLogger(QueueGauges.class);

    private final TaskQueue tasks;
    private final MeterRegistry registry;
    private final Map<String, QueueStats> latest = new ConcurrentHashMap<>();
    /** True until a refresh succeeds, and again after one fails. */
    private final AtomicBoolean stale = new AtomicBoolean(true);

    public QueueGauges(TaskQueue tasks, HandlerRegistry handlers, MeterRegistry registry) {
        this.tasks = tasks;
        this.registry = registry;
        handlers.queues().forEach(this::register);
        Gauge.builder("dedupq.queue.gauges.stale", stale, s -> s.get() ? 1 : 0)
                .description("1 while the queue gauges have no fresh snapshot (none yet, or the last refresh failed): they read NaN")
                .register(registry);
    }

    @Scheduled(every = "${dedupq.metrics.refresh-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void refresh() {
        try {
            tasks.stats().forEach(stats -> latest.put(stats.queue(), stats));
            stale.set(false);
        } catch (RuntimeException e) {
            latest.clear();
            stale.set(true);
            LOG.debugf("queue gauges read NaN until a refresh succeeds: %s", e.getMessage());
        }
    }

    private void register(String queue) {
        gauge("dedupq.queue.pending", queue, QueueStats::pending, "envelopes waiting in pending");
        gauge("dedupq.queue.processing", queue, QueueStats::processing, "copies in the processing lists of all workers");
        gauge("dedupq.queue.delayed", queue, QueueStats::delayed, "retries waiting for their due time");
        gauge("dedupq.queue.dead", queue, QueueStats::dead, "entries in the dead list");
        skipped(queue, "done", QueueStats::skippedDone);
        skipped(queue, "locked", QueueStats::skippedLocked);
        skipped(queue, "stale", QueueStats::skippedStale);
    }

    private void gauge(String name, String queue, ToDoubleFunction<QueueStats> value, String description) {
        Gauge.builder(name, latest, snapshot -> read(snapshot.get(queue), value)).tag("queue", queue)
                .description(description + " (whole queue, same on every pod)").register(registry);
    }

    private void skipped(String queue, String reason, ToDoubleFunction<QueueStats> value) {
        Gauge.builder("dedupq.queue.duplicates.skipped", latest, snapshot -> read(snapshot.get(queue), value))
                .tag("queue", queue).tag("reason", reason)
                .description("copies dropped by all workers since the stats hash began, by reason (same on every pod)")
                .register(registry);
    }

    private static double read(QueueStats stats, ToDoubleFunction<QueueStats> value) {
        return stats == null ? Double.NaN : value.applyAsDouble(stats);
    }
}
