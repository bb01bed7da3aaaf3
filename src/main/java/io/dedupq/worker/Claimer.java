package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Takes envelopes from a queue's pending list into this worker's processing list (claim.lua, BLMOVE). */
@ApplicationScoped
public class Claimer {

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final WorkerIdentity worker;
    private final DedupqConfig config;
    private final Clock clock;

    public Claimer(RedisCalls redis, RedisKeys keys, WorkerIdentity worker, DedupqConfig config, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.worker = worker;
        this.config = config;
        this.clock = clock;
    }

    /** What one claim call did: copies dropped as duplicates, dead-lettered, and those now ours. */
    public record Claimed(long duplicates, long deadLettered, List<Claim> claims) {
    }

    /**
     * Claims up to {@code max} tasks. {@code moved} is an envelope that BLMOVE already put in
     * the processing list (it counts toward {@code max}), or null.
     */
    public Claimed claim(String queue, int max, String moved) {
        Duration ttl = config.queues().get(queue).lockTtl();
        Response reply = redis.script(LuaScript.CLAIM,
                List.of(keys.pending(queue), keys.processing(queue, worker.id()), keys.fence(queue), keys.stats(queue),
                        keys.dead(queue)),
                List.of(keys.base(queue), Integer.toString(max), Long.toString(ttl.toMillis()), worker.id(),
                        Long.toString(clock.millis()), queue, moved == null ? "" : moved));
        List<Claim> claims = new ArrayList<>();
        for (int i = 2; i + 2 < reply.size(); i += 3) {
            claims.add(new Claim(reply.get(i).toString(), reply.get(i + 1).toString(), reply.get(i + 2).toLong()));
        }
        return new Claimed(reply.get(0).toLong(), reply.get(1).toLong(), claims);
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
     * Puts copies of this worker back on pending; {@code release} tells per copy whether its
     * lock may be freed (false while another copy of the same id still runs here).
     */
    public long requeue(String queue, List<String> envelopes, List<Boolean> release) {
        if (envelopes.isEmpty()) {
            return 0;
        }
        List<String> args = new ArrayList<>(List.of(keys.base(queue), worker.id()));
        for (int i = 0; i < envelopes.size(); i++) {
            args.add(envelopes.get(i));
            args.add(release.get(i) ? "1" : "0");
        }
        return redis.script(LuaScript.REQUEUE, List.of(keys.processing(queue, worker.id()), keys.pending(queue)), args)
                .toLong();
    }

    /**
     * Puts every copy in {@code workerId}'s processing list back on pending and frees the locks
     * that worker held: for a worker that is gone, or for this one at the end of shutdown.
     */
    public long requeueAll(String queue, String workerId) {
        return redis.script(LuaScript.REQUEUE, List.of(keys.processing(queue, workerId), keys.pending(queue)),
                List.of(keys.base(queue), workerId)).toLong();
    }
}
