package io.dedupq.queue;

/**
 * A pipeline of script calls met a node without one of its scripts (NOSCRIPT) and was not
 * sent again, because some of its calls may already have run ({@link RedisCalls#scriptsOnce}).
 */
public class ScriptNotLoadedException extends StoreUnavailableException {

    public ScriptNotLoadedException(Throwable cause) {
        super(cause);
    }
}
