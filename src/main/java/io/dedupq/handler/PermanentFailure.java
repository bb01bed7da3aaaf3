package io.dedupq.handler;

/** Thrown by a handler when retrying cannot help (bad data, a refused business rule). */
public class PermanentFailure extends RuntimeException {

    public PermanentFailure(String message) {
        super(message);
    }
}
