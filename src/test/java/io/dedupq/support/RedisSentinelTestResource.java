package io.dedupq.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/** Starts a {@link RedisSentinelGroup} and points the sentinel client at it. */
public class RedisSentinelTestResource implements QuarkusTestResourceLifecycleManager {

    private static volatile RedisSentinelGroup group;

    public static RedisSentinelGroup group() {
        return group;
    }

    @Override
    public Map<String, String> start() {
        group = RedisSentinelGroup.start(Path.of("target", "test-redis", "sentinel-" + UUID.randomUUID()));
        return Map.of("quarkus.redis.client-type", "sentinel", "quarkus.redis.hosts", group.hosts(),
                "quarkus.redis.master-name", RedisSentinelGroup.MASTER_NAME, "quarkus.redis.role", "master",
                "quarkus.redis.auto-failover", "true");
    }

    @Override
    public void stop() {
        if (group != null) {
            group.stop();
        }
    }
}
