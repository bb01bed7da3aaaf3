package io.dedupq.queue;

/**
 * The master took the write, but fewer replicas than {@code dedupq.durability.replicas}
 * acknowledged it within {@code dedupq.durability.replica-timeout}: a failover now may lose it,
 * so the outcome is unknown to the caller, as after a timeout (retry with the same id).
 */
public class NotReplicatedException extends StoreUnavailableException {

    public NotReplicatedException(long acknowledged, int wanted) {
        super("Redis replication: ", new IllegalStateException(acknowledged + " of " + wanted
                + " replicas acknowledged the write in time"));
    }
}
