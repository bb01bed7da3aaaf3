package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.health.RedisMemory;
import io.dedupq.metrics.TaskMetrics;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/** Takes envelopes from a queue's pending list into this worker's processing list (claim.lua, BLMOVE). */
@ApplicationScoped
public class Claimer {

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final WorkerIdentity worker;
    private final DedupqConfig config;
    private final QueuePartitions partitions;
    private final TaskMetrics metrics;
    private final RedisMemory memory;

    public Claimer(RedisCalls redis, RedisKeys keys, WorkerIdentity worker, DedupqConfig config,
            QueuePartitions partitions, TaskMetrics metrics, RedisMemory memory) {
        this.memory = memory;
        this.redis = redis;
        this.keys = keys;
        this.worker = worker;
        this.config = config;
        this.partitions = partitions;
        this.metrics = metrics;
    }

    /**
     * What one claim call did: copies dropped as duplicates, dead-lettered, and those now ours.
     * {@code registered} is false when this worker's heartbeat was stale, or Redis evicts (see
     * {@link #paused}), and nothing was claimed: the dispatcher waits and asks again.
     */
    public record Claimed(boolean registered, long duplicates, long deadLettered, List<Claim> claims) {
    }

    /** True while Redis runs an evicting policy that dedupq must not claim under ({@link RedisMemory}); never blocks. */
    public boolean paused() {
        return memory.unsafe();
    }

    /**
     * Claims up to {@code max} tasks. {@code moved} is an envelope that BLMOVE already put in
     * the processing list (it counts toward {@code max}), or null.
     */
    public Claimed claim(String queue, int max, String moved) {
        if (moved == null && !memory.claimsAllowed()) {
            return new Claimed(false, 0, 0, List.of());
        }
        return claimed(queue, redis.script(call(queue, max, moved)));
    }

    /** The claim.lua call of {@link #claim}, for sending in a pipeline with other calls of the queue. */
    public ScriptCall call(String queue, int max, String moved) {
        Duration ttl = partitions.settings(queue).lockTtl();
        // the freshness is an age: claim.lua measures it on Redis's clock, the one heartbeats are written by
        List<String> args = List.of(keys.base(queue), Integer.toString(max), Long.toString(ttl.toMillis()), worker.id(),
                Long.toString(config.worker().heartbeatExpiry().toMillis() / 2), QueuePartitions.queueOf(queue),
                moved == null ? "" : moved);
        return new ScriptCall(LuaScript.CLAIM,
                List.of(keys.pending(queue), keys.processing(queue, worker.id()), keys.fence(queue), keys.stats(queue),
                        keys.dead(queue), keys.workers(queue)), args);
    }

    /** Reads the reply of a {@link #call} and counts what it dropped. */
    public Claimed claimed(String queue, Response reply) {
        List<Claim> claims = new ArrayList<>();
        for (int i = 3; i + 4 < reply.size(); i += 5) {
            claims.add(new Claim(reply.get(i).toString(), reply.get(i + 4).toString(), reply.get(i + 1).toString(),
                    reply.get(i + 2).toString(), reply.get(i + 3).toLong()));
        }
        // (type, reason) per dropped copy
        Response dropped = reply.get(1);
        for (int i = 0; i + 1 < dropped.size(); i += 2) {
            metrics.skipped(queue, dropped.get(i).toString(), dropped.get(i + 1).toString());
        }
        Claimed claimed = new Claimed(reply.get(0).toInteger() == 1, dropped.size() / 2, reply.get(2).toLong(), claims);
        metrics.unparseable(queue, claimed.deadLettered());
        return claimed;
    }

    /** Waits up to the block timeout for an envelope and moves it to processing; null if none came. */
    public String awaitNext(String queue) {
        Duration block = config.worker().blockTimeout();
        Response moved = redis.send(Request.cmd(Command.BLMOVE).arg(keys.pending(queue))
                .arg(keys.processing(queue, worker.id())).arg("RIGHT").arg("LEFT")
                .arg(String.format(Locale.ROOT, "%.3f", block.toMillis() / 1000.0)),
                block.plus(RedisCalls.REPLY_TIMEOUT));
        return moved == null ? null : moved.toString();
    }

    /** This worker's processing list as it is in Redis. */
    public List<String> processing(String queue) {
        List<String> copies = new ArrayList<>();
        redis.send(Request.cmd(Command.LRANGE).arg(keys.processing(queue, worker.id())).arg(0).arg(-1))
                .forEach(r -> copies.add(r.toString()));
        return copies;
    }

    /**
     * Puts copies of this worker back on pending. Locks held by the executions with
     * {@code runningTokens} are left alone, so a copy that shares its id with a running one
     * does not free that one's lock.
     */
    public long requeue(String queue, List<String> envelopes, Collection<String> runningTokens) {
        if (envelopes.isEmpty()) {
            return 0;
        }
        List<String> args = new ArrayList<>(List.of(keys.base(queue), worker.id(), "given", "0", "0",
                Integer.toString(envelopes.size())));
        args.addAll(envelopes);
        args.addAll(runningTokens);
        return requeue(queue, worker.id(), args).size();
    }

    /**
     * At the end of shutdown: every copy of this worker back on pending. Its heartbeat on the
     * queue is left behind as already expired, so the reaper requeues anything that still lands
     * in its list and forgets it later.
     */
    public long requeueAllAndLeave(String queue) {
        String expired = Long.toString(config.worker().heartbeatExpiry().toMillis() + 1);
        return requeue(queue, worker.id(), List.of(keys.base(queue), worker.id(), "all", expired, "0")).size();
    }

    /**
     * For the reaper: if {@code workerId}'s heartbeat on this queue is still older than
     * {@code expiry} by Redis's clock, its copies go back to pending with its locks freed; it is
     * forgotten once its list is empty and its heartbeat is older than {@code forgetAfter}.
     * Returns the types of the copies requeued.
     */
    public List<String> requeueExpired(String queue, String workerId, Duration expiry, Duration forgetAfter) {
        return requeue(queue, workerId, List.of(keys.base(queue), workerId, "expired", Long.toString(expiry.toMillis()),
                Long.toString(forgetAfter.toMillis())));
    }

    /** The types of the copies that went back to pending, one per copy. */
    private List<String> requeue(String queue, String workerId, List<String> args) {
        List<String> types = new ArrayList<>();
        redis.script(LuaScript.REQUEUE, List.of(keys.processing(queue, workerId), keys.pending(queue), keys.workers(queue)),
                args).forEach(type -> types.add(type.toString()));
        return types;
    }
}
