package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;

/** Keeps this worker's entry in {@code <prefix>:workers} fresh; the reaper treats a stale one as dead. */
@ApplicationScoped
public class Heartbeat {

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final WorkerIdentity worker;
    private final DedupqConfig config;
    private final Clock clock;
    private final PeriodicLoop loop = new PeriodicLoop("heartbeat");

    public Heartbeat(RedisCalls redis, RedisKeys keys, WorkerIdentity worker, DedupqConfig config, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.worker = worker;
        this.config = config;
        this.clock = clock;
    }

    private volatile boolean registered;

    public void start() {
        loop.start(config.worker().heartbeatInterval(), this::beat);
    }

    public void beat() {
        redis.send(Request.cmd(Command.ZADD).arg(keys.workers()).arg(clock.millis()).arg(worker.id()));
        registered = true;
    }

    /**
     * True once a beat has landed. Dispatchers claim nothing before: a copy claimed by a worker
     * without a heartbeat entry would be invisible to the reaper if that worker died.
     */
    public boolean registered() {
        return registered;
    }

    /** Stops beating and removes the entry: only after this worker's copies went back to pending. */
    public void stop() {
        loop.stop();
        redis.send(Request.cmd(Command.ZREM).arg(keys.workers()).arg(worker.id()));
    }
}
