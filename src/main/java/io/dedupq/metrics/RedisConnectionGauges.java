package io.dedupq.metrics;

import io.micrometer.core.instrument.config.MeterFilter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Set;

/**
 * Leaves out the two gauges that Quarkus's Vert.x metrics make for every Redis connection,
 * {@code redis.queue.size} and {@code redis.current}. They are made once per connection but
 * named after the client only, so the second pooled connection of a client (the app's client
 * opens several at start) registers them again: Micrometer ignores it with a WARN ("This Gauge
 * has been already registered") and goes on reporting the first connection alone. The pool
 * metrics ({@code redis.pool.queue.size}, {@code redis.pool.active}) give the same for the whole
 * pool; the client's timers and counters are shared by its connections and are kept.
 */
@Singleton
public class RedisConnectionGauges {

    private static final Set<String> PER_CONNECTION = Set.of("redis.queue.size", "redis.current");

    @Produces
    @Singleton
    MeterFilter leaveOutPerConnectionGauges() {
        return MeterFilter.deny(id -> "redis".equals(id.getTag("clientType")) && PER_CONNECTION.contains(id.getName()));
    }
}
