package io.dedupq.config;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * In dev mode, REDIS_URL (when set) becomes quarkus.redis.hosts. With no Redis address at all it
 * starts a private redis-server (data under target/dev-redis) and points quarkus.redis.hosts at
 * it, so `./mvnw quarkus:dev` works on a fresh clone. Live reloads reuse the same server; it stops
 * with the JVM, once the application has stopped using it ({@link DevRedisLease}). Only the dev
 * profile does this: production never starts Redis itself, tests start their own.
 */
public class DevRedisConfigSourceFactory implements ConfigSourceFactory {

    /** Remembered across dev-mode reloads, which load this class again in a new class loader. */
    private static final String STARTED = "io.dedupq.dev-redis-url";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (!context.getProfiles().contains("dev") || configured(context.getValue("quarkus.redis.hosts"))) {
            return List.of();
        }
        ConfigValue given = context.getValue("REDIS_URL");
        String url = configured(given) ? given.getValue() : System.getProperty(STARTED);
        if (url == null) {
            RedisProcess redis = RedisProcess.startInOwnSession(Path.of("target", "dev-redis"));
            Runtime.getRuntime().addShutdownHook(DevRedisLease.stopAfterRelease(redis));
            url = redis.url();
            System.setProperty(STARTED, url);
            System.out.println("dedupq dev mode: started a private redis-server at " + url + " (data in target/dev-redis)");
        }
        return List.of(new PropertiesConfigSource(Map.of("quarkus.redis.hosts", url), "dedupq-dev-redis", 275));
    }

    /** True once this JVM has started a private redis-server. */
    static boolean started() {
        return System.getProperty(STARTED) != null;
    }

    private static boolean configured(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank();
    }
}
