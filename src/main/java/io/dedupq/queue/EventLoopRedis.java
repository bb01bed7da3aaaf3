package io.dedupq.queue;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The worker's hot path to Redis, without thread switches: a client of its own, bound to one
 * Vert.x event loop. A Vert.x Redis client hands every reply to the event loop it was created
 * on, and then to the context of whoever sent the call; the app's client lives on a loop of its
 * own and blocking callers wait on yet other threads, so each call crosses threads two or three
 * times. This client is created on the loop that runs the code given to {@link #execute}: calls
 * sent from there are written at once and their replies are handled where they arrive. A handler
 * thread that hands work to the loop costs one wake-up at most, however many calls follow.
 *
 * <p>Same settings as the app's client (hosts, client type, password, TLS: {@link RedisSettings}).
 * A call not answered within {@link RedisCalls#REPLY_TIMEOUT} fails; every failure is a
 * {@link StoreUnavailableException} ({@link RedisFullException} for Redis's OOM reply).
 */
@ApplicationScoped
public class EventLoopRedis {

    private static final String NAME = "dedupq-worker";

    private final Vertx vertx;
    private final RefusedWrites refusals;
    private final Context loop;
    /** Created on {@link #loop} by the first task queued there; only used on it. */
    private Redis client;

    public EventLoopRedis(Vertx vertx, RedisSettings settings, RefusedWrites refusals) {
        this.vertx = vertx;
        this.refusals = refusals;
        this.loop = newEventLoopContext(vertx);
        RedisOptions options = settings.copy().setPoolName(NAME);
        // its own name in the Redis client metrics (redis.* with clientName=dedupq-worker)
        options.setNetClientOptions(new NetClientOptions(options.getNetClientOptions()).setMetricsName("redis|" + NAME));
        loop.runOnContext(v -> client = Redis.createClient(vertx, options));
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

    /** Sends the requests in one write (one hash slot); only on the loop. Replies in request order. */
    public Future<List<Response>> batch(List<Request> requests) {
        return guarded(client.batch(requests));
    }

    /** One script call on the loop; a node without the script (NOSCRIPT) gets it as EVAL, which loads it. */
    public Future<Response> script(ScriptCall call) {
        return guarded(client.send(call.evalsha().getDelegate()).recover(e -> RedisCalls.isNoScript(e)
                ? client.send(call.eval().getDelegate())
                : Future.failedFuture(e)));
    }

    /** Runs {@code then} on the loop after {@code millis}. */
    public void later(long millis, Runnable then) {
        schedule(() -> vertx.setTimer(millis, id -> then.run()));
    }

    @PreDestroy
    void close() {
        loop.runOnContext(v -> {
            if (client != null) {
                client.close();
            }
        });
    }

    private <T> Future<T> guarded(Future<T> reply) {
        return reply.timeout(RedisCalls.REPLY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .recover(e -> Future.failedFuture(refusals.failure(e)));
    }
}
