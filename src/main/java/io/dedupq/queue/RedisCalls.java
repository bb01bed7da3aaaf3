package io.dedupq.queue;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * The app's Redis client behind the {@link RedisGateway}: blocking calls for callers on worker
 * threads, and a non-blocking script pipeline for the HTTP enqueue path. Routing, NOSCRIPT,
 * timeouts and failures are the gateway's; this class only waits for replies, or hands them on
 * as {@link Uni}.
 */
@ApplicationScoped
public class RedisCalls {

    private final RedisGateway gateway;
    private final WriteFailures writeFailures;

    public RedisCalls(Redis redis, RedisSettings settings, Vertx vertx, WriteFailures writeFailures) {
        // the app's client itself, unless it is a cluster client: then a router of our own (RedisNodes)
        this.gateway = new RedisGateway(RedisNodes.of(vertx, settings.copy(), redis::getDelegate), writeFailures);
        this.writeFailures = writeFailures;
    }

    /** One command, routed by its key. */
    public Response send(KeyedCommand command) {
        return await(() -> gateway.send(command, RedisGateway.REPLY_TIMEOUT).map(Response::newInstance),
                RedisGateway.REPLY_TIMEOUT);
    }

    /**
     * One command without a routing key: one that touches no key (TIME, INFO), or, on a Cluster,
     * one whose key any master may redirect (MOVED) at the cost of a second round trip.
     */
    public Response send(Request request) {
        return send(request, RedisGateway.REPLY_TIMEOUT);
    }

    /** {@link #send(Request)}, waiting at most {@code timeout}. */
    public Response send(Request request, Duration timeout) {
        return await(() -> gateway.send(KeyedCommand.keyless(request), timeout).map(Response::newInstance), timeout);
    }

    /** The Redis server's time (ms): the clock every liveness and due-time decision is made by, never a pod's. */
    public long serverMillis() {
        return millis(send(Request.cmd(Command.TIME)));
    }

    /** A TIME reply (seconds, microseconds) in ms. */
    public static long millis(Response time) {
        return time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
    }

    /** Pipelines the commands (one write per hash slot of their keys); replies come back in command order. */
    public List<Response> batch(List<KeyedCommand> commands) {
        return await(() -> gateway.batch(commands).map(RedisCalls::wrap), RedisGateway.REPLY_TIMEOUT);
    }

    /** {@link #batch} without blocking, for callers that must not wait (sent when subscribed). */
    public Uni<List<Response>> batchAsync(List<KeyedCommand> commands) {
        return Uni.createFrom().deferred(() -> UniHelper.toUni(gateway.batch(commands).map(RedisCalls::wrap)));
    }

    public Response script(ScriptCall call) {
        return await(() -> gateway.script(call).map(Response::newInstance), RedisGateway.REPLY_TIMEOUT);
    }

    /**
     * Several script calls pipelined (one write per hash slot). On NOSCRIPT the calls of that
     * slot are sent again as EVAL: only for calls that are safe to run again as a group.
     */
    public List<Response> scripts(List<ScriptCall> calls) {
        return await(() -> gateway.scripts(calls).map(RedisCalls::wrap), RedisGateway.REPLY_TIMEOUT);
    }

    /**
     * {@link #scripts} without blocking, for callers on an event loop: the reply arrives on the
     * Redis client's loop and nothing waits for it. Sent when subscribed, again at every
     * subscription (the caller's guard may retry).
     */
    public Uni<List<Response>> scriptsAsync(List<ScriptCall> calls) {
        return Uni.createFrom().deferred(() -> UniHelper.toUni(gateway.scripts(calls).map(RedisCalls::wrap)));
    }

    /**
     * {@link #scriptsAsync}, each slot's pipeline followed by WAIT for {@code replicas} replicas
     * (see {@link RedisGateway#scriptsReplicated}): fails with {@link NotReplicatedException}
     * when fewer acknowledged.
     */
    public Uni<List<Response>> scriptsReplicatedAsync(List<ScriptCall> calls, int replicas, Duration timeout) {
        return Uni.createFrom().deferred(
                () -> UniHelper.toUni(gateway.scriptsReplicated(calls, replicas, timeout).map(RedisCalls::wrap)));
    }

    /** The gateway speaks the core Vert.x types; this class hands out Mutiny's (a missing reply stays null). */
    private static List<Response> wrap(List<io.vertx.redis.client.Response> replies) {
        return replies.stream().map(Response::newInstance).toList();
    }

    /** Waits for the reply; the gateway's own {@code timeout} ends the wait, this one is a second guard. */
    private <T> T await(Supplier<Future<T>> call, Duration timeout) {
        try {
            return UniHelper.toUni(call.get()).await().atMost(timeout.plusSeconds(1));
        } catch (RuntimeException e) {
            throw writeFailures.failure(e);
        }
    }
}
