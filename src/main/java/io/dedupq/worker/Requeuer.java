package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
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
        return RequeueScript.Call.given(partition, worker.id(), envelopes, runningTokens).script(keys);
    }

    /**
     * At the end of shutdown: every copy of this worker back on pending. Its heartbeat on the
     * queue is left behind as already expired, so the reaper requeues anything that still lands
     * in its list and forgets it later.
     */
    public long requeueAllAndLeave(Partition partition) {
        long expired = config.worker().heartbeatExpiry().toMillis() + 1;
        return send(RequeueScript.Call.all(partition, worker.id(), expired)).size();
    }

    /**
     * For the reaper: if {@code workerId}'s heartbeat on this queue is still older than
     * {@code expiry} by Redis's clock, its copies go back to pending with its locks freed; it is
     * forgotten once its list is empty and its heartbeat is older than {@code forgetAfter}.
     * Returns the types of the copies requeued.
     */
    public List<String> requeueExpired(Partition partition, String workerId, Duration expiry, Duration forgetAfter) {
        return send(RequeueScript.Call.expired(partition, workerId, expiry.toMillis(), forgetAfter.toMillis()));
    }

    private List<String> send(RequeueScript.Call call) {
        return RequeueScript.Reply.read(redis.script(call.script(keys))).types();
    }
}
