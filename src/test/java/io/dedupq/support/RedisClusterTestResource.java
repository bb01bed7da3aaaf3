package io.dedupq.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * Starts a local 3-master {@link RedisCluster} for the test application and points the cluster
 * client at it; the init argument {@code replicas} gives each master that many replicas (0 by default).
 */
public class RedisClusterTestResource implements QuarkusTestResourceLifecycleManager {

    private static volatile RedisCluster cluster;

    private int replicasEach;

    @Override
    public void init(Map<String, String> initArgs) {
        replicasEach = Integer.parseInt(initArgs.getOrDefault("replicas", "0"));
    }

    public static RedisCluster cluster() {
        return cluster;
    }

    @Override
    public Map<String, String> start() {
        cluster = RedisCluster.start(Path.of("target", "test-redis", "cluster-" + UUID.randomUUID()), 3, replicasEach);
        return Map.of("quarkus.redis.client-type", "cluster", "quarkus.redis.hosts", cluster.hosts());
    }

    @Override
    public void stop() {
        if (cluster != null) {
            cluster.stop();
        }
    }
}
