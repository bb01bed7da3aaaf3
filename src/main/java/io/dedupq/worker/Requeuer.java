package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Puts copies from a worker's processing list back on pending (requeue.lua). */
@ApplicationScoped
public class Requeuer {

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final WorkerIdentity worker;
    private final DedupqConfig config;

    public Requeuer(RedisCalls redis, RedisKeys keys, WorkerIdentity worker, DedupqConfig config) {
        this.redis = redis;
        this.keys = keys;
        this.worker = worker;
        this.config = config;
    }

    /**
     * The call that puts copies of this worker back on pending, for its partition's owner to send.
     * Locks held by the executions with {@code runningTokens} are left alone, so a copy that
     * shares its id with a running one does not free that one's lock.
     */
    public ScriptCall given(Partition partition, List<String> envelopes, Collection<String> runningTokens) {
        List<String> args = new ArrayList<>(List.of(keys.base(partition), worker.id(), "given", "0", "0",
                Integer.toString(envelopes.size())));
        args.addAll(envelopes);
        args.addAll(runningTokens);
        return call(partition, worker.id(), args);
    }

    /**
     * At the end of shutdown: every copy of this worker back on pending. Its heartbeat on the
     * queue is left behind as already expired, so the reaper requeues anything that still lands
     * in its list and forgets it later.
     */
    public long requeueAllAndLeave(Partition partition) {
        String expired = Long.toString(config.worker().heartbeatExpiry().toMillis() + 1);
        return types(redis.script(call(partition, worker.id(),
                List.of(keys.base(partition), worker.id(), "all", expired, "0")))).size();
    }

    /**
     * For the reaper: if {@code workerId}'s heartbeat on this queue is still older than
     * {@code expiry} by Redis's clock, its copies go back to pending with its locks freed; it is
     * forgotten once its list is empty and its heartbeat is older than {@code forgetAfter}.
     * Returns the types of the copies requeued.
     */
    public List<String> requeueExpired(Partition partition, String workerId, Duration expiry, Duration forgetAfter) {
        return types(redis.script(call(partition, workerId, List.of(keys.base(partition), workerId, "expired",
                Long.toString(expiry.toMillis()), Long.toString(forgetAfter.toMillis())))));
    }

    /** requeue.lua's reply: the types of the copies that went back to pending, one per copy. */
    public static List<String> types(Response reply) {
        List<String> types = new ArrayList<>();
        reply.forEach(type -> types.add(type.toString()));
        return types;
    }

    private ScriptCall call(Partition partition, String workerId, List<String> args) {
        return new ScriptCall(LuaScript.REQUEUE,
                List.of(keys.processing(partition, workerId), keys.pending(partition), keys.workers(partition)), args);
    }
}
