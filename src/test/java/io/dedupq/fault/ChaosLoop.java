package io.dedupq.fault;

import io.dedupq.support.AppJvm;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Every few seconds (random between {@code min} and {@code max}) kills a random worker pod
 * with SIGKILL and starts a replacement, as a node failure and its restart would. Workers that
 * a scripted fault has reserved, and the api pod, are left alone; it never kills the last
 * ready worker pod.
 */
final class ChaosLoop implements AutoCloseable {

    private final WorkerFleet fleet;
    private final Figures figures;
    private final Duration min;
    private final Duration max;
    private final Thread thread = new Thread(this::run, "fault-suite-chaos");
    private volatile boolean running = true;

    ChaosLoop(WorkerFleet fleet, Figures figures, Duration min, Duration max) {
        this.fleet = fleet;
        this.figures = figures;
        this.min = min;
        this.max = max;
    }

    ChaosLoop start() {
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void run() {
        while (running) {
            try {
                Thread.sleep(ThreadLocalRandom.current().nextLong(min.toMillis(), max.toMillis() + 1));
            } catch (InterruptedException e) {
                return;
            }
            if (!running || fleet.available().size() < 2) {
                continue;
            }
            Optional<AppJvm> victim = fleet.reserveRandom();
            if (victim.isEmpty()) {
                continue;
            }
            victim.get().kill();
            figures.add("kill -9 of a worker", 1);
            fleet.launchWorker();
            figures.add("replacement workers started", 1);
            fleet.release(victim.get());
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(30_000);
    }
}
