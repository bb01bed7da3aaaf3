package io.dedupq.support;

import io.dedupq.config.RedisProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A local Redis Cluster of real processes: N masters, each with R replicas (0 unless asked), each
 * a redis-server with {@code --cluster-enabled yes} on a free port, joined by
 * {@code redis-cli --cluster create}. Stopped by pid. Tests ask single nodes through redis-cli
 * (which slot a key has, who serves it, which node replicates it).
 */
public final class RedisCluster {

    private static final long READY_TIMEOUT_SECONDS = 30;

    private final List<RedisProcess> nodes;

    private RedisCluster(List<RedisProcess> nodes) {
        this.nodes = nodes;
    }

    public static RedisCluster start(Path dir, int masters) {
        return start(dir, masters, 0);
    }

    /** {@code masters} masters with {@code replicasEach} replicas each, every replica's link up. */
    public static RedisCluster start(Path dir, int masters, int replicasEach) {
        List<RedisProcess> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < masters * (1 + replicasEach); i++) {
                Path nodeDir = dir.resolve("node-" + i);
                nodes.add(RedisProcess.start(nodeDir, "--cluster-enabled", "yes",
                        "--cluster-config-file", nodeDir.resolve("nodes.conf").toAbsolutePath().toString(),
                        "--cluster-node-timeout", "5000",
                        // the masters that are up keep serving their slots while one is down (ClusterTest)
                        "--cluster-require-full-coverage", "no"));
            }
            RedisCluster cluster = new RedisCluster(nodes);
            List<String> create = new ArrayList<>(List.of("--cluster", "create"));
            nodes.forEach(node -> create.add("127.0.0.1:" + node.port()));
            create.addAll(List.of("--cluster-replicas", Integer.toString(replicasEach), "--cluster-yes"));
            cluster.cli(nodes.get(0), create.toArray(String[]::new));
            cluster.awaitReady();
            RedisCli.await(READY_TIMEOUT_SECONDS, "every replica's link to its master up", () -> nodes.stream()
                    .map(node -> cluster.cli(node, "info", "replication"))
                    .allMatch(info -> info.contains("role:master") || info.contains("master_link_status:up")));
            return cluster;
        } catch (RuntimeException e) {
            nodes.forEach(RedisProcess::stop);
            throw e;
        }
    }

    /** The value of quarkus.redis.hosts: every node, comma-separated. */
    public String hosts() {
        return nodes.stream().map(RedisProcess::url).collect(Collectors.joining(","));
    }

    public List<RedisProcess> nodes() {
        return nodes;
    }

    /** Waits until every node reports cluster_state:ok and knows all masters. */
    public void awaitReady() {
        RedisCli.await(READY_TIMEOUT_SECONDS, "cluster_state:ok on every node", () -> nodes.stream().allMatch(this::ready));
    }

    /** The node (as host:port) that serves the slot of {@code key}. */
    public String masterOf(String key) {
        int slot = Integer.parseInt(cli(nodes.get(0), "cluster", "keyslot", key).trim());
        for (String line : cli(nodes.get(0), "cluster", "nodes").split("\n")) {
            String[] fields = line.trim().split(" ");
            if (fields.length < 9 || !fields[2].contains("master")) {
                continue;
            }
            for (int i = 8; i < fields.length; i++) {
                String[] range = fields[i].split("-");
                int from = Integer.parseInt(range[0]);
                int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                if (slot >= from && slot <= to) {
                    return fields[1].replaceAll("@.*", "");
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot);
    }

    /** The node that serves {@code key}'s slot. */
    public RedisProcess nodeOf(String key) {
        String address = masterOf(key);
        return nodes.stream().filter(n -> address.endsWith(":" + n.port())).findFirst().orElseThrow();
    }

    /** The replica of {@code master} (the cluster's first, if it has several). */
    public RedisProcess replicaOf(RedisProcess master) {
        String[] lines = cli(nodes.get(0), "cluster", "nodes").split("\n");
        String masterId = null;
        for (String line : lines) {
            String[] fields = line.trim().split(" ");
            if (fields.length > 2 && fields[2].contains("master") && fields[1].startsWith("127.0.0.1:" + master.port() + "@")) {
                masterId = fields[0];
            }
        }
        for (String line : lines) {
            String[] fields = line.trim().split(" ");
            if (fields.length > 3 && fields[2].contains("slave") && fields[3].equals(masterId)) {
                int port = Integer.parseInt(fields[1].replaceAll("@.*", "").replaceAll(".*:", ""));
                return nodes.stream().filter(n -> n.port() == port).findFirst().orElseThrow();
            }
        }
        throw new IllegalStateException("no replica of " + master.url() + " (node " + masterId + ")");
    }

    public void stop() {
        nodes.forEach(RedisProcess::stop);
    }

    private boolean ready(RedisProcess node) {
        String info = cli(node, "cluster", "info");
        return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + nodes.size());
    }

    /** Runs redis-cli against one node and returns what it printed. */
    public String cli(RedisProcess node, String... args) {
        return RedisCli.run(node.port(), args);
    }
}
