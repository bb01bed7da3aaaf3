package io.dedupq.health;

import io.dedupq.queue.ClusterAddresses;
import io.dedupq.queue.RedisSettings;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.RedisClientType;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Direct connections to single nodes of a Redis Cluster, for the readiness check. The cluster
 * client routes a keyless command to any one node, and it cannot connect at all while one
 * master is down, so it can neither reach every master nor say which one failed. The options of
 * the app's client (password, TLS) are captured when Quarkus creates it, and reused for one small
 * standalone client per node.
 */
@Singleton
public class ClusterNodes {

    /** Looked up when first needed: Quarkus builds its Redis client before Vert.x is ready for injection. */
    private final Instance<Vertx> vertx;
    private final RedisSettings settings;
    private final Map<String, Redis> clients = new ConcurrentHashMap<>();
    /** Masters of the last topology read, asked first next time (the configured hosts may have gone). */
    private volatile List<String> knownMasters = List.of();

    public ClusterNodes(Instance<Vertx> vertx, RedisSettings settings) {
        this.vertx = vertx;
        this.settings = settings;
    }

    /** One master as the cluster describes it: its address and whether the cluster flags it as failed. */
    public record Master(String address, boolean flaggedFailed) {
    }

    public boolean cluster() {
        return settings.captured() && settings.copy().getType() == RedisClientType.CLUSTER;
    }

    /**
     * The masters that serve slots, from CLUSTER NODES of the first node that answers (the
     * configured hosts and the masters seen last time are asked at once).
     */
    public List<Master> masters(Duration timeout) {
        Set<String> askable = new LinkedHashSet<>(knownMasters);
        settings.copy().getEndpoints().forEach(endpoint -> askable.add(ClusterAddresses.address(endpoint)));
        List<Uni<Response>> asks = askable.stream()
                .map(address -> node(address).send(Request.cmd(Command.CLUSTER).arg("NODES"))).toList();
        String nodes = Uni.join().first(asks).withItem().await().atMost(timeout).toString();
        List<Master> masters = new ArrayList<>();
        for (String line : nodes.split("\n")) {
            // <id> <ip:port@cport[,hostname]> <flags> <master> <ping> <pong> <epoch> <link> <slot>...
            String[] fields = line.trim().split(" ");
            List<String> flags = fields.length > 2 ? List.of(fields[2].split(",")) : List.of();
            if (fields.length > 8 && flags.contains("master")) {
                masters.add(new Master(fields[1].replaceAll("@.*", ""), flags.contains("fail")));
            }
        }
        knownMasters = masters.stream().map(Master::address).toList();
        return masters;
    }

    /** A client that talks to the node at {@code address} (host:port) only. */
    public Redis node(String address) {
        return clients.computeIfAbsent(address, a -> Redis.createClient(vertx.get(),
                ClusterAddresses.node(settings.copy(), a).setMaxPoolSize(2).setMaxPoolWaiting(16)
                        .setPoolName("dedupq-readiness-" + a)));
    }

    @PreDestroy
    void close() {
        clients.values().forEach(Redis::close);
    }
}
