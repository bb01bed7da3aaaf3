package io.dedupq.metrics;

import io.dedupq.health.RedisMemory;
import io.dedupq.queue.RefusedWrites;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.function.ToLongFunction;

/**
 * Redis's memory as dedupq last read it ({@link RedisMemory}, every {@code dedupq.redis.check-interval};
 * NaN before the first reading), and the writes it refused on this pod ({@link RefusedWrites}): a
 * rising {@code dedupq.redis.writes.refused} means Redis is full and enqueues get 507, a rising
 * {@code dedupq.redis.writes.refused.replicas} that the master has too few replicas and enqueues get 503.
 */
@ApplicationScoped
public class RedisMemoryGauges {

    private final RedisMemory memory;
    private final RefusedWrites refused;
    private final MeterRegistry registry;

    public RedisMemoryGauges(RedisMemory memory, RefusedWrites refused, MeterRegistry registry) {
        this.memory = memory;
        this.refused = refused;
        this.registry = registry;
    }

    void register(@Observes StartupEvent event) {
        gauge("dedupq.redis.memory.used", RedisMemory.State::usedMemory, "Redis used_memory in bytes");
        gauge("dedupq.redis.memory.max", RedisMemory.State::maxMemory, "Redis maxmemory in bytes (0: no limit)");
        FunctionCounter.builder("dedupq.redis.writes.refused", refused, RefusedWrites::forWantOfMemory)
                .description("Redis calls of this pod refused with OOM (Redis at maxmemory under noeviction)")
                .register(registry);
        FunctionCounter.builder("dedupq.redis.writes.refused.replicas", refused, RefusedWrites::forWantOfReplicas)
                .description("Redis calls of this pod refused with NOREPLICAS (the master has fewer replicas than its min-replicas-to-write)")
                .register(registry);
    }

    private void gauge(String name, ToLongFunction<RedisMemory.State> value, String description) {
        Gauge.builder(name, memory, m -> m.latest() == null ? Double.NaN : value.applyAsLong(m.latest()))
                .description(description + ", as last read").baseUnit("bytes").register(registry);
    }
}
