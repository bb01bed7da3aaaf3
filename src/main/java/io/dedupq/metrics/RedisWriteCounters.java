package io.dedupq.metrics;

import io.dedupq.queue.WriteFailures;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The Redis writes of this pod that did not take effect as asked ({@link WriteFailures}): a rising
 * {@code dedupq.redis.writes.refused} means Redis is full (enqueues get 507), a rising
 * {@code dedupq.redis.writes.refused.replicas} that the master has too few replicas for its
 * {@code min-replicas-to-write} (503), a rising {@code dedupq.redis.writes.unreplicated} that
 * replicas lag behind {@code dedupq.durability.replica-timeout} (503 not-replicated, outcomes
 * sent again).
 */
@ApplicationScoped
public class RedisWriteCounters {

    private final WriteFailures failures;
    private final MeterRegistry registry;

    public RedisWriteCounters(WriteFailures failures, MeterRegistry registry) {
        this.failures = failures;
        this.registry = registry;
    }

    void register(@Observes StartupEvent event) {
        FunctionCounter.builder("dedupq.redis.writes.refused", failures, WriteFailures::forWantOfMemory)
                .description("Redis calls of this pod refused with OOM (Redis at maxmemory under noeviction)")
                .register(registry);
        FunctionCounter.builder("dedupq.redis.writes.refused.replicas", failures, WriteFailures::forWantOfReplicas)
                .description("Redis calls of this pod refused with NOREPLICAS (the master has fewer replicas than its min-replicas-to-write)")
                .register(registry);
        FunctionCounter.builder("dedupq.redis.writes.unreplicated", failures, WriteFailures::notReplicatedInTime)
                .description("Redis calls of this pod that the master ran but fewer replicas than dedupq.durability.replicas "
                        + "acknowledged within dedupq.durability.replica-timeout")
                .register(registry);
    }
}
