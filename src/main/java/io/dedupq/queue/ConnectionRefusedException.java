package io.dedupq.queue;

/**
 * The Redis node refused the connection at once (nothing listens on its port: stopped, or a
 * Cluster master that is down). Nobody waited for it, so the circuit breaker, which is there to
 * keep callers from waiting, does not count it: on a Cluster the other masters' calls go on.
 */
public class ConnectionRefusedException extends StoreUnavailableException {

    public ConnectionRefusedException(Throwable cause) {
        super("Redis unavailable: ", cause);
    }
}
