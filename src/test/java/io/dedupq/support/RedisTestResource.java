package io.dedupq.support;

import io.dedupq.config.RedisProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Starts a private redis-server on a free port for the test application (never the one on 6379)
 * and stops it by pid afterwards. Tests reach it through {@link #redis()} to stop, pause or
 * restart it. Init args (from a test profile's {@code TestResourceEntry}), both optional:
 * {@code args}, more redis-server options separated by spaces ({@code --maxmemory 8mb}); and
 * {@code config}, lines of a config file the server includes, one per {@code ;}, for what only a
 * config file can say ({@code rename-command CONFIG ""}).
 */
public class RedisTestResource implements QuarkusTestResourceLifecycleManager {

    private static volatile RedisProcess redis;
    private String args = "";
    private String config = "";

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
    public void init(Map<String, String> initArgs) {
        args = initArgs.getOrDefault("args", "");
        config = initArgs.getOrDefault("config", "");
    }

    @Override
    public Map<String, String> start() {
        Path dir = Path.of("target", "test-redis", UUID.randomUUID().toString());
        List<String> options = new ArrayList<>();
        for (String arg : args.trim().split(" +")) {
            if (!arg.isEmpty()) {
                options.add(arg);
            }
        }
        if (!config.isBlank()) {
            options.add("--include");
            options.add(included(dir, config).toAbsolutePath().toString());
        }
        redis = RedisProcess.start(dir, options.toArray(String[]::new));
        return Map.of("quarkus.redis.hosts", redis.url());
    }

    private static Path included(Path dir, String lines) {
        try {
            Files.createDirectories(dir);
            return Files.writeString(dir.resolve("included.conf"), String.join("\n", lines.split(";")) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
        if (redis != null) {
            redis.stop();
        }
    }
}
