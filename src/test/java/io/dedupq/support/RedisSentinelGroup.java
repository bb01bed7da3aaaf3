package io.dedupq.support;

import io.dedupq.config.RedisProcess;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A master, two replicas and one Sentinel watching them, as real processes on free ports. The
 * sentinel declares the master down after 1 s and fails over to the replica with the most of its
 * history (quorum 1). Stopped by pid.
 */
public final class RedisSentinelGroup {

    public static final String MASTER_NAME = "mymaster";
    private static final long READY_SECONDS = 30;

    private static final int REPLICAS = 2;
    private static final String[] NO_SYNC_DELAY = {"--repl-diskless-sync-delay", "0"};

    private final RedisProcess master;
    private final List<RedisProcess> replicas = new ArrayList<>();
    private final int sentinelPort;
    private Process sentinel;

    private RedisSentinelGroup(RedisProcess master, int sentinelPort) {
        this.master = master;
        this.sentinelPort = sentinelPort;
    }

    public static RedisSentinelGroup start(Path dir) {
        // a master sends its first snapshot 5 s after a replica asks, by default, to serve later ones with it; a
        // replica promoted by the failover is such a master too
        RedisSentinelGroup group = new RedisSentinelGroup(
                RedisProcess.start(dir.resolve("master"), NO_SYNC_DELAY), freePort());
        try {
            for (int i = 1; i <= REPLICAS; i++) {
                group.replicas.add(RedisProcess.start(dir.resolve("replica-" + i), NO_SYNC_DELAY[0], NO_SYNC_DELAY[1],
                        "--replicaof", "127.0.0.1", Integer.toString(group.master.port())));
            }
            for (RedisProcess replica : group.replicas) {
                RedisCli.await(READY_SECONDS, "replica in sync",
                        () -> RedisCli.run(replica.port(), "info", "replication").contains("master_link_status:up"));
            }
            group.startSentinel(dir.resolve("sentinel"));
            return group;
        } catch (RuntimeException e) {
            group.stop();
            throw e;
        }
    }

    /** The value of quarkus.redis.hosts: the sentinel. */
    public String hosts() {
        return "redis://127.0.0.1:" + sentinelPort;
    }

    public RedisProcess master() {
        return master;
    }

    public List<RedisProcess> replicas() {
        return List.copyOf(replicas);
    }

    /** True once the sentinel names one of the replicas as master. */
    public boolean failedOver() {
        int port = currentMasterPort();
        return replicas.stream().anyMatch(replica -> replica.port() == port);
    }

    /** The process the sentinel names as master now. */
    public RedisProcess currentMaster() {
        int port = currentMasterPort();
        return processes().filter(process -> process.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("the sentinel names no process of this group: port " + port));
    }

    /** The live processes but the current master: its replicas, once the sentinel has pointed them at it. */
    public List<RedisProcess> currentReplicas() {
        int port = currentMasterPort();
        return processes().filter(process -> process.alive() && process.port() != port).toList();
    }

    private Stream<RedisProcess> processes() {
        return Stream.concat(Stream.of(master), replicas.stream());
    }

    /** The port of the master as the sentinel names it now. */
    public int currentMasterPort() {
        String[] reply = RedisCli.run(sentinelPort, "sentinel", "get-master-addr-by-name", MASTER_NAME).trim().split("\n");
        return Integer.parseInt(reply[reply.length - 1].trim());
    }

    public void stop() {
        if (sentinel != null && sentinel.isAlive()) {
            sentinel.destroy();
            try {
                if (!sentinel.waitFor(5, TimeUnit.SECONDS)) {
                    sentinel.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        replicas.forEach(RedisProcess::stop);
        master.stop();
    }

    private void startSentinel(Path dir) {
        try {
            Files.createDirectories(dir);
            Path conf = dir.resolve("sentinel.conf");
            // sentinel rewrites its file as it learns the topology, so it must be a file of ours
            Files.write(conf, List.of(
                    "port " + sentinelPort,
                    "bind 127.0.0.1",
                    "dir " + dir.toAbsolutePath(),
                    "logfile " + dir.resolve("sentinel.log").toAbsolutePath(),
                    "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master.port() + " 1",
                    "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                    "sentinel failover-timeout " + MASTER_NAME + " 5000"));
            sentinel = new ProcessBuilder("redis-server", conf.toAbsolutePath().toString(), "--sentinel")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("sentinel.out").toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start redis sentinel: " + e.getMessage(), e);
        }
        for (RedisProcess replica : replicas) {
            String replicaPort = Integer.toString(replica.port());
            RedisCli.await(READY_SECONDS, "sentinel knows the replicas",
                    () -> RedisCli.run(sentinelPort, "sentinel", "replicas", MASTER_NAME).contains(replicaPort));
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }
}
