package io.dedupq.health;

import io.dedupq.config.DedupqConfig;
import io.dedupq.worker.PartitionOwner;
import io.dedupq.worker.WorkerPool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Live = the owner of every queue partition comes round: it has a free handler slot, or claims,
 * within {@code dedupq.worker.liveness-timeout}. One whose slots are all held longer by handlers
 * that do not return turns it DOWN and is named under "stalled", so the orchestrator restarts
 * the pod. Redis being down is not a liveness problem: the owners keep coming round while they
 * back off, and readiness reports it. A pod without workers has no owners and is live.
 */
@Liveness
@ApplicationScoped
public class PartitionLivenessCheck implements HealthCheck {

    private final WorkerPool pool;
    private final Duration limit;

    public PartitionLivenessCheck(WorkerPool pool, DedupqConfig config) {
        this.pool = pool;
        this.limit = config.worker().livenessTimeout();
    }

    @Override
    public HealthCheckResponse call() {
        List<PartitionOwner> owners = pool.owners();
        List<String> stalled = owners.stream().filter(o -> o.stalled(limit)).map(o -> o.partition().name()).toList();
        return HealthCheckResponse.named("partitions").status(stalled.isEmpty())
                .withData("queues", String.join(",", owners.stream().map(o -> o.partition().name()).toList()))
                .withData("stalled", String.join(",", stalled)).build();
    }
}
