package io.dedupq.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigValue;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.junit.jupiter.api.Test;

/** When the app may start its own Redis, and what it says when it cannot. */
class DevRedisTest {

    @Test
    void productionNeverStartsRedis() {
        assertTrue(sources(List.of("prod"), Map.of()).isEmpty());
    }

    @Test
    void devUsesAConfiguredAddressAsItIs() {
        assertTrue(sources(List.of("dev"), Map.of("quarkus.redis.hosts", "redis://elsewhere:6379")).isEmpty());
    }

    @Test
    void devTakesRedisUrlFromTheEnvironmentName() {
        List<ConfigSource> found = sources(List.of("dev"), Map.of("REDIS_URL", "redis://elsewhere:6380"));
        assertEquals("redis://elsewhere:6380", found.get(0).getValue("quarkus.redis.hosts"));
    }

    @Test
    void missingRedisServerFailsAtOnceNamingTheWaysOut() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RedisProcess.requireRedisServer("/nonexistent-folder"));
        assertTrue(e.getMessage().contains("apt-get install redis-server"), e.getMessage());
        assertTrue(e.getMessage().contains("REDIS_URL") && e.getMessage().contains("quarkus.redis.hosts"), e.getMessage());
    }

    private static List<ConfigSource> sources(List<String> profiles, Map<String, String> values) {
        ConfigSourceContext context = new ConfigSourceContext() {
            @Override
            public ConfigValue getValue(String name) {
                return ConfigValue.builder().withName(name).withValue(values.get(name)).build();
            }

            @Override
            public Iterator<String> iterateNames() {
                return values.keySet().iterator();
            }

            @Override
            public List<String> getProfiles() {
                return profiles;
            }
        };
        List<ConfigSource> found = new ArrayList<>();
        new DevRedisConfigSourceFactory().getConfigSources(context).forEach(found::add);
        return found;
    }
}
