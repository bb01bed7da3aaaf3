package io.dedupq.queue;

/** Redis did not answer (down, restarting, unreachable, too slow); the caller may retry. */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(Throwable cause) {
        super("Redis unavailable: " + cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage()), cause);
    }
}
