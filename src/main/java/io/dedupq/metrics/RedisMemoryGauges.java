package io.dedupq.metrics;

import io.dedupq.health.RedisMemory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.function.ToLongFunction;

/**
 * Redis's memory as dedupq last read it ({@link RedisMemory}, every {@code dedupq.redis.check-interval};
 * NaN before the first reading).
 */
@ApplicationScoped
public class RedisMemoryGauges {

    private final RedisMemory memory;
    private final MeterRegistry registry;

    public RedisMemoryGauges(RedisMemory memory, MeterRegistry registry) {
        this.memory = memory;
        this.registry = registry;
    }

    void register(@Observes StartupEvent event) {
        gauge("dedupq.redis.memory.used", RedisMemory.State::usedMemory, "Redis used_memory in bytes");
        gauge("dedupq.redis.memory.max", RedisMemory.State::maxMemory, "Redis maxmemory in bytes (0: no limit)");
    }

    private void gauge(String name, ToLongFunction<RedisMemory.State> value, String description) {
        Gauge.builder(name, memory, m -> m.latest() == null ? Double.NaN : value.applyAsLong(m.latest()))
                .description(description + ", as last read").baseUnit("bytes").register(registry);
    }
}
