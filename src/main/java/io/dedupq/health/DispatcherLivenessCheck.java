package io.dedupq.health;

import io.dedupq.config.DedupqConfig;
import io.dedupq.worker.Dispatcher;
import io.dedupq.worker.WorkerPool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Live = every dispatcher loop comes round. A loop stuck longer than
 * {@code dedupq.worker.liveness-timeout} (or dead) turns it DOWN and is named under "stalled",
 * so the orchestrator restarts the pod. Redis being down is not a liveness problem: the loops
 * keep coming round while they back off, and readiness reports it. A pod without workers has
 * no dispatchers and is live.
 */
@Liveness
@ApplicationScoped
public class DispatcherLivenessCheck implements HealthCheck {

    private final WorkerPool pool;
    private final Duration limit;

    public DispatcherLivenessCheck(WorkerPool pool, DedupqConfig config) {
        this.pool = pool;
        this.limit = config.worker().livenessTimeout();
    }

    @Override
    public HealthCheckResponse call() {
        List<Dispatcher> dispatchers = pool.dispatchers();
        List<String> stalled = dispatchers.stream().filter(d -> d.stalled(limit)).map(Dispatcher::queue).toList();
        return HealthCheckResponse.named("dispatchers").status(stalled.isEmpty())
                .withData("queues", String.join(",", dispatchers.stream().map(Dispatcher::queue).toList()))
                .withData("stalled", String.join(",", stalled)).build();
    }
}
