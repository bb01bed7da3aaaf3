package io.dedupq.queue;

import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.redis.client.RedisOptions;
import jakarta.inject.Singleton;
import java.util.Objects;

/**
 * The options of the app's Redis client (hosts, client type, password, TLS), captured when
 * Quarkus builds it from {@code quarkus.redis.*}, for the clients dedupq makes of its own: the
 * worker's hot path, the cancel listener and the readiness check's per-node clients. Nothing is
 * changed here.
 */
@Singleton
public class RedisSettings implements RedisOptionsCustomizer {

    private volatile RedisOptions options;

    @Override
    public void customize(String clientName, RedisOptions options) {
        // dedupq uses the default client only
        this.options = new RedisOptions(options);
    }

    /** A copy of the captured options, to change for a client of our own. */
    public RedisOptions copy() {
        return new RedisOptions(Objects.requireNonNull(options, "the Redis client has not been built yet"));
    }

    /**
     * The options of a client of dedupq's own called {@code name}: its own pool and its own name in
     * the Redis client metrics ({@code redis.*} with clientName=name), and never a span per call,
     * whatever the application traces (a task's spans are dedupq's own, TaskTracing).
     */
    public RedisOptions ownClient(String name) {
        RedisOptions own = copy().setPoolName(name);
        own.setNetClientOptions(new NetClientOptions(own.getNetClientOptions()).setMetricsName("redis|" + name));
        own.setTracingPolicy(TracingPolicy.IGNORE);
        return own;
    }

    /** True once the options are captured (before that, Quarkus has not built its client). */
    public boolean captured() {
        return options != null;
    }
}
