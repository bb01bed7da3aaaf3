package io.dedupq.queue;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Response;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The worker's hot path to Redis, without thread switches: a client of its own, bound to one
 * Vert.x event loop. A Vert.x Redis client hands every reply to the event loop it was created
 * on, and then to the context of whoever sent the call; the app's client lives on a loop of its
 * own and blocking callers wait on yet other threads, so each call crosses threads two or three
 * times. This client is created on the loop that runs the code given to {@link #schedule}: calls
 * sent from there are written at once and their replies are handled where they arrive. A handler
 * thread that hands work to the loop costs one wake-up at most, however many calls follow.
 *
 * <p>Same settings as the app's client (hosts, client type, password, TLS: {@link RedisSettings}).
 * Its calls go through a {@link RedisGateway} of its own: NOSCRIPT, timeouts and failures are
 * handled there, as for every other client.
 */
@ApplicationScoped
public class EventLoopRedis {

    private static final String NAME = "dedupq-worker";

    private final Vertx vertx;
    private final Context loop;
    /** Created on {@link #loop} by the first task queued there; only used on it. */
    private RedisNodes nodes;
    private RedisGateway gateway;

    public EventLoopRedis(Vertx vertx, RedisSettings settings, WriteFailures writeFailures, QueuePartitions partitions) {
        this.vertx = vertx;
        this.loop = newEventLoopContext(vertx);
        RedisOptions options = settings.ownClient(NAME);
        // every queue partition's owner may hold a connection in BLMOVE; the calls need their own
        options.setMaxPoolSize(options.getMaxPoolSize() + partitions.all().size());
        loop.runOnContext(v -> {
            nodes = RedisNodes.of(vertx, options, () -> Redis.createClient(vertx, options));
            gateway = new RedisGateway(nodes, writeFailures);
        });
    }

    /**
     * An event-loop context of its own, whichever thread first needs this bean (an event loop of
     * the HTTP server, say): Vert.x gives a thread it does not know a new context on the next
     * event loop, so a short-lived thread of ours asks for it.
     */
    private static Context newEventLoopContext(Vertx vertx) {
        CompletableFuture<Context> created = new CompletableFuture<>();
        Thread asker = new Thread(() -> created.complete(vertx.getOrCreateContext()), "dedupq-worker-context");
        asker.start();
        return created.join();
    }

    /** Queues {@code task} on the loop, behind what is waiting, even when called there. */
    public void schedule(Runnable task) {
        loop.runOnContext(v -> task.run());
    }

    /**
     * One command on the loop. {@code timeout} bounds the wait for its reply: a blocking command
     * (BLMOVE) needs its own wait plus {@link RedisGateway#REPLY_TIMEOUT}.
     */
    public Future<Response> send(KeyedCommand command, Duration timeout) {
        return gateway.send(command, timeout);
    }

    /** One script call on the loop (see {@link RedisGateway#script}). */
    public Future<Response> script(ScriptCall call) {
        return gateway.script(call);
    }

    /**
     * One script call on the loop, followed by WAIT when {@code replicas} is above 0 (see
     * {@link RedisGateway#script(ScriptCall, int, Duration)}).
     */
    public Future<Response> script(ScriptCall call, int replicas, Duration timeout) {
        return gateway.script(call, replicas, timeout);
    }

    /** Runs {@code then} on the loop after {@code millis}. */
    public void later(long millis, Runnable then) {
        schedule(() -> vertx.setTimer(millis, id -> then.run()));
    }

    @PreDestroy
    void close() {
        loop.runOnContext(v -> {
            if (nodes != null) {
                nodes.close();
            }
        });
    }
}
