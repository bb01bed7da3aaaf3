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
 * In dev and test mode, REDIS_URL (when set) becomes quarkus.redis.hosts. With no Redis address
 * at all it starts a private redis-server (data under target/dev-redis or target/test-redis/private)
 * and points quarkus.redis.hosts at it, so `./mvnw quarkus:dev` works on a fresh clone and an
 * application's {@code @QuarkusTest} needs no Redis of its own. Live reloads and test classes
 * reuse the same server; it stops with the JVM, once the application has stopped using it
 * ({@link DevRedisLease}). Production never starts Redis itself.
 */
public class DevRedisConfigSourceFactory implements ConfigSourceFactory {

    /** Remembered across dev-mode reloads, which load this class again in a new class loader. */
    private static final String STARTED = "io.dedupq.dev-redis-url";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        List<String> profiles = context.getProfiles();
        boolean dev = profiles.contains("dev");
        if (!(dev || profiles.contains("test")) || configured(context.getValue("quarkus.redis.hosts"))
                || "false".equals(valueOf(context.getValue("dedupq.dev-redis.enabled")))) {
            return List.of();
        }
        ConfigValue given = context.getValue("REDIS_URL");
        String url = configured(given) ? given.getValue() : System.getProperty(STARTED);
        if (url == null) {
            Path data = dev ? Path.of("target", "dev-redis") : Path.of("target", "test-redis", "private");
            RedisProcess redis = RedisProcess.startInOwnSession(data);
            Runtime.getRuntime().addShutdownHook(DevRedisLease.stopAfterRelease(redis));
            url = redis.url();
            System.setProperty(STARTED, url);
            System.out.println("dedupq: started a private redis-server at " + url + " (data in " + data + ")");
        }
        return List.of(new PropertiesConfigSource(Map.of("quarkus.redis.hosts", url), "dedupq-dev-redis", 275));
    }

    /** True once this JVM has started a private redis-server. */
    static boolean started() {
        return System.getProperty(STARTED) != null;
    }

    private static boolean configured(ConfigValue value) {
        return valueOf(value) != null && !value.getValue().isBlank();
    }

    private static String valueOf(ConfigValue value) {
        return value == null ? null : value.getValue();
    }
}
