package io.dedupq.queue;

import io.netty.channel.ConnectTimeoutException;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.ConnectException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns a failed Redis call into what callers catch, {@link RedisFullException} for Redis's OOM
 * reply, {@link TooFewReplicasException} for its NOREPLICAS reply, {@link NotReplicatedException}
 * for a WAIT that counted too few replicas, {@link ConnectionRefusedException} for a node that
 * refused the connection and {@link StoreUnavailableException} for everything else, and counts the first three since this process started (the metrics of
 * {@code io.dedupq.metrics.RedisWriteCounters}; health's {@code refusedWrites} reads the OOM count).
 */
@ApplicationScoped
public class WriteFailures {

    private final AtomicLong tooLittleMemory = new AtomicLong();
    private final AtomicLong tooFewReplicas = new AtomicLong();
    private final AtomicLong unreplicated = new AtomicLong();

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
        // refused at once, not a connect that timed out
        ConnectException connect = RedisReplies.connectFailure(e);
        return connect != null && !(connect instanceof ConnectTimeoutException) ? new ConnectionRefusedException(e)
                : new StoreUnavailableException(e);
    }

    /** The failure of a call whose WAIT counted {@code acknowledged} replicas of the {@code wanted}. */
    public NotReplicatedException notReplicated(long acknowledged, int wanted) {
        unreplicated.incrementAndGet();
        return new NotReplicatedException(acknowledged, wanted);
    }

    /** Calls Redis refused with OOM. */
    public long forWantOfMemory() {
        return tooLittleMemory.get();
    }

    /** Calls Redis refused with NOREPLICAS (fewer replicas than its min-replicas-to-write). */
    public long forWantOfReplicas() {
        return tooFewReplicas.get();
    }

    /** Calls the master ran but fewer replicas than asked acknowledged in time. */
    public long notReplicatedInTime() {
        return unreplicated.get();
    }
}
