package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;

/** Execution contexts for calling a handler outside a worker: never lost, cancelled or timed out; progress dropped. */
public final class Contexts {

    private static final ExecutionContext.Signals QUIET = new ExecutionContext.Signals() {
        @Override
        public boolean lockLost() {
            return false;
        }

        @Override
        public boolean cancelled() {
            return false;
        }

        @Override
        public boolean timedOut() {
            return false;
        }
    };

    private Contexts() {
    }

    /** Signals that never fire. */
    public static ExecutionContext.Signals quiet() {
        return QUIET;
    }

    public static ExecutionContext of(String id, String queue, int attempt, long fencingToken) {
        return new ExecutionContext(id, queue, attempt, fencingToken, QUIET, (percent, note) -> { });
    }
}
