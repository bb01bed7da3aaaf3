package io.dedupq.config;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.time.Duration;

/**
 * Keeps dev mode's private redis-server until the application is done with it. The server is
 * stopped by a JVM shutdown hook, and the JVM starts all its hooks at once, among them Quarkus's
 * own, which stops the application: on its way the worker pool hands its unfinished copies back
 * to pending, which needs Redis. So the application holds a lease from its start to the last of
 * its shutdown observers, and the hook waits for the lease to end before it stops Redis.
 *
 * <p>The lease is a system property because dev-mode reloads load this class again in a new
 * class loader, and the hook belongs to the first one. It does nothing where no private
 * redis-server was started.
 */
@ApplicationScoped
public class DevRedisLease {

    private static final String HELD_FOR = "io.dedupq.dev-redis-held-for-ms";
    /** Beyond the shutdown grace: requeueing the copies of handlers that overran it, leaving the heartbeat. */
    private static final Duration MARGIN = Duration.ofSeconds(10);

    void take(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, DedupqConfig config) {
        if (DevRedisConfigSourceFactory.started()) {
            System.setProperty(HELD_FOR, Long.toString(config.worker().shutdownGrace().plus(MARGIN).toMillis()));
        }
    }

    /** After every other shutdown observer, the worker pool's among them. */
    void release(@Observes @Priority(Integer.MAX_VALUE) ShutdownEvent event) {
        System.clearProperty(HELD_FOR);
    }

    /**
     * The JVM shutdown hook that stops {@code redis} once no application holds the lease, or once
     * the application has had as long as it said its shutdown may take. Built here, when the
     * server starts, so that running it loads no class: a dev-mode class loader may be closed by then.
     */
    static Thread stopAfterRelease(RedisProcess redis) {
        return new Thread(() -> {
            awaitRelease();
            redis.stop();
        }, "dedupq-dev-redis-stop");
    }

    private static void awaitRelease() {
        String heldFor = System.getProperty(HELD_FOR);
        if (heldFor == null) {
            return;
        }
        long deadline = System.nanoTime() + Duration.ofMillis(Long.parseLong(heldFor)).toNanos();
        while (System.getProperty(HELD_FOR) != null && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
