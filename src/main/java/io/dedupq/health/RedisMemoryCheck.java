package io.dedupq.health;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.WriteFailures;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready = the Redis eviction policy keeps dedupq's keys ({@link RedisMemory}): DOWN on an evicting
 * policy unless {@code dedupq.redis.allow-eviction} accepts it, naming the policy and what it
 * breaks. Reads the last periodic reading, so a probe never waits on Redis for it; with no reading
 * yet (Redis not reached so far) it says so and leaves the verdict to the "redis" check. A full
 * Redis stays UP, with its figures and the writes it refused in the data: it still serves reads
 * and takes outcomes, and an API pod taken out of service could not answer 507.
 */
@Readiness
@ApplicationScoped
public class RedisMemoryCheck implements HealthCheck {

    private final RedisMemory memory;
    private final DedupqConfig config;
    private final WriteFailures refused;

    public RedisMemoryCheck(RedisMemory memory, DedupqConfig config, WriteFailures refused) {
        this.memory = memory;
        this.config = config;
        this.refused = refused;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder health = HealthCheckResponse.named("redis-memory");
        RedisMemory.State state = memory.latest();
        if (state == null) {
            return health.up().withData("policy", "not read yet").build();
        }
        health.withData("policy", state.policy()).withData("policySource", state.source())
                .withData("usedMemory", state.usedMemory()).withData("maxMemory", state.maxMemory())
                .withData("refusedWrites", refused.forWantOfMemory());
        if (!state.node().isEmpty()) {
            health.withData("node", state.node());
        }
        if (state.evicting()) {
            health.withData("evicts", RedisMemory.harm(state.policy()));
            if (config.redis().allowEviction()) {
                health.withData("allowed", "dedupq.redis.allow-eviction=true");
            }
        }
        return health.status(!memory.unsafe()).build();
    }
}
