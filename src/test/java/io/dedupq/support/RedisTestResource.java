package io.dedupq.support;

import io.dedupq.config.RedisProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * Starts a private redis-server on a free port for the test application (never the one on 6379)
 * and stops it by pid afterwards. Tests reach it through {@link #redis()} to stop, pause or
 * restart it.
 */
public class RedisTestResource implements QuarkusTestResourceLifecycleManager {

    private static volatile RedisProcess redis;

    public static RedisProcess redis() {
        return redis;
    }

    /** After a test stopped or paused the server: running and answering again, for the next test. */
    public static void runAgain() {
        if (redis.alive()) {
            redis.resume();
        } else {
            redis.start();
        }
    }

    @Override
    public Map<String, String> start() {
        redis = RedisProcess.start(Path.of("target", "test-redis", UUID.randomUUID().toString()));
        return Map.of("quarkus.redis.hosts", redis.url());
    }

    @Override
    public void stop() {
        if (redis != null) {
            redis.stop();
        }
    }
}
