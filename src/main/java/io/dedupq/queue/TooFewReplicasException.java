package io.dedupq.queue;

/**
 * Redis answered, with {@code NOREPLICAS}: the master's {@code min-replicas-to-write} asks for more
 * replicas than are connected and close behind, and it refuses writes until they are. As with
 * {@link RedisFullException} the outcome is known: Redis refuses a script at its first write, so
 * the refused script wrote nothing. The master still answers and serves reads, so the circuit
 * breaker does not count it, and on a Cluster only that master's slots are refused.
 */
public class TooFewReplicasException extends StoreUnavailableException {

    public TooFewReplicasException(Throwable cause) {
        super("Redis refused the write for want of replicas (min-replicas-to-write): ", cause);
    }
}
