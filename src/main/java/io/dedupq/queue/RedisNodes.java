package io.dedupq.queue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where the {@link RedisGateway}'s commands go: the one Redis of a standalone or Sentinel setup,
 * or, on a Redis Cluster, the master that serves the hash slot of the command's keys
 * ({@link ClusterRouter}).
 */
interface RedisNodes {

    /** One command for {@code slot} (-1: it touches no key, any node takes it). */
    Future<Response> send(int slot, Request request);

    /** Commands pipelined to the node of {@code slot}, their keys all in that slot; replies in order. */
    Future<List<Response>> batch(int slot, List<Request> requests);

    void close();

    /**
     * The nodes for a client with {@code options}: a router of our own on a Cluster (the Vert.x
     * cluster client is not used), else the client {@code client} gives. Call it on the context
     * whose event loop should get the replies.
     */
    static RedisNodes of(Vertx vertx, RedisOptions options, Supplier<Redis> client) {
        return options.getType() == RedisClientType.CLUSTER ? new ClusterRouter(vertx, options) : single(client.get());
    }

    /** Every command to {@code client}, whatever its slot. */
    static RedisNodes single(Redis client) {
        return new RedisNodes() {
            @Override
            public Future<Response> send(int slot, Request request) {
                return client.send(request);
            }

            @Override
            public Future<List<Response>> batch(int slot, List<Request> requests) {
                return client.batch(requests);
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }
}
