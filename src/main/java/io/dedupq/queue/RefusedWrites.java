package io.dedupq.queue;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns a failed Redis call into what callers catch, {@link RedisFullException} for Redis's OOM
 * reply, {@link TooFewReplicasException} for its NOREPLICAS reply and
 * {@link StoreUnavailableException} for everything else, and counts the OOM replies (the metric
 * {@code dedupq.redis.writes.refused}, health's {@code refusedWrites}) and the NOREPLICAS ones
 * (the metric {@code dedupq.redis.writes.refused.replicas}).
 */
@ApplicationScoped
public class RefusedWrites {

    private final AtomicLong tooLittleMemory = new AtomicLong();
    private final AtomicLong tooFewReplicas = new AtomicLong();

    public StoreUnavailableException failure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StoreUnavailableException known) {
                return known;
            }
        }
        if (RedisReplies.say(e, RedisReplies.OOM)) {
            tooLittleMemory.incrementAndGet();
            return new RedisFullException(e);
        }
        if (RedisReplies.say(e, RedisReplies.NO_REPLICAS)) {
            tooFewReplicas.incrementAndGet();
            return new TooFewReplicasException(e);
        }
        return new StoreUnavailableException(e);
    }

    /** Calls Redis refused with OOM since this process started. */
    public long forWantOfMemory() {
        return tooLittleMemory.get();
    }

    /** Calls Redis refused with NOREPLICAS (fewer replicas than its min-replicas-to-write) since this process started. */
    public long forWantOfReplicas() {
        return tooFewReplicas.get();
    }
}
