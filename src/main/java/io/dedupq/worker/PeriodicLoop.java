package io.dedupq.worker;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * One named thread that runs one step at a fixed delay; a failing step is logged and retried next
 * turn. Also the outbox relay's, which needs intervals below the Quarkus scheduler's 1 s check period.
 */
public final class PeriodicLoop {

    private static final Logger LOG = Logger.getLogger(PeriodicLoop.class);

    private final String name;
    private ScheduledExecutorService executor;

    public PeriodicLoop(String name) {
        this.name = name;
    }

    public synchronized void start(Duration interval, Runnable step) {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dedupq-" + name);
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(() -> {
            try {
                step.run();
            } catch (RuntimeException e) {
                // a step cut short by stop() is no failure worth a warning
                if (!Thread.currentThread().isInterrupted()) {
                    LOG.warnf("%s: %s", name, e.getMessage());
                }
            }
        }, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    public synchronized void stop() {
        if (executor == null) {
            return;
        }
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor = null;
    }
}
