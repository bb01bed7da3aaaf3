package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.KeyedCommand;
import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Keeps this worker's heartbeat entries fresh; the reaper treats a stale one as a dead worker. */
@ApplicationScoped
public class Heartbeat {

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final WorkerIdentity worker;
    private final QueuePartitions partitions;
    private final DedupqConfig config;
    private final PeriodicLoop loop = new PeriodicLoop("heartbeat");
    private volatile long beatingSince;
    private long lastLanded;

    public Heartbeat(RedisCalls redis, RedisKeys keys, WorkerIdentity worker, QueuePartitions partitions,
            DedupqConfig config) {
        this.redis = redis;
        this.keys = keys;
        this.worker = worker;
        this.partitions = partitions;
        this.config = config;
    }

    public void start() {
        loop.start(config.worker().heartbeatInterval(), this::beat);
    }

    /**
     * One pipeline (one beat.lua per hash slot): the worker's score in every partition it consumes (claim.lua claims
     * only while that score is fresh) and in the list of all workers. The score is the Redis server's time, never
     * this pod's, so a pod whose clock is off is still judged alive by the same clock it is judged with.
     */
    public void beat() {
        List<ScriptCall> beats = new ArrayList<>();
        for (Partition partition : partitions.all()) {
            beats.add(new BeatScript.Call(keys.workers(partition), worker.id()).script());
        }
        beats.add(new BeatScript.Call(keys.workers(), worker.id()).script());
        try {
            redis.scripts(beats);
        } catch (RuntimeException e) {
            beatingSince = 0;
            throw e;
        }
        long landed = System.nanoTime();
        if (beatingSince == 0 || landed - lastLanded > interruption()) {
            beatingSince = landed;
        }
        lastLanded = landed;
    }

    /**
     * A gap between two landed beats that may have let a live worker's heartbeat look expired
     * (Redis paused or slow for about as long as the expiry): the other workers' beats were held
     * up as long as ours, give or take one interval. Shorter gaps, a beat slowed by a loaded host,
     * say, leave every heartbeat fresh and do not interrupt.
     */
    private long interruption() {
        return config.worker().heartbeatExpiry().minus(config.worker().heartbeatInterval()).toNanos();
    }

    /** How long beats have landed on time without an interruption; zero while failing. */
    public Duration beatingFor() {
        long since = beatingSince;
        return since == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - since);
    }

    /** Stops beating; call before the worker leaves its queues (requeue.lua "all" mode). */
    public void stop() {
        loop.stop();
    }

    /** Removes the worker from the list of all workers, after it has left every partition. */
    public void leave() {
        redis.send(KeyedCommand.of(Command.ZREM, keys.workers()).arg(worker.id()));
    }
}
