package io.dedupq.queue;

/** Redis did not answer (down, restarting, unreachable, too slow); the caller may retry. */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(Throwable cause) {
        this("Redis unavailable: ", cause);
    }

    protected StoreUnavailableException(String prefix, Throwable cause) {
        super(prefix + cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage()),
                cause);
    }
}
