package io.dedupq.queue;

import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import java.net.URI;
import java.util.List;

/** Nodes of a Redis Cluster by address (host:port), and the options of a client that talks to one of them only. */
public final class ClusterAddresses {

    private static final int DEFAULT_PORT = 6379;

    private ClusterAddresses() {
    }

    /**
     * The options of a standalone client of the node at {@code address}: those of the configured
     * {@code cluster} client (password, TLS, pool sizes), its URL with the scheme and credentials
     * of the configured ones, as the cluster client builds it.
     */
    public static RedisOptions node(RedisOptions cluster, String address) {
        URI seed = URI.create(cluster.getEndpoint());
        // still percent-encoded, as it must be in the new URL
        String credentials = seed.getRawUserInfo();
        return new RedisOptions(cluster).setType(RedisClientType.STANDALONE)
                .setEndpoints(List.of(seed.getScheme() + "://" + (credentials == null ? "" : credentials + "@") + address));
    }

    /** host:port of a redis:// or rediss:// URL (Redis's port when it names none). */
    public static String address(String endpoint) {
        URI uri = URI.create(endpoint);
        return uri.getHost() + ":" + (uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort());
    }
}
