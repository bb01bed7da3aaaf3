package io.dedupq.queue;

import java.util.List;

/**
 * The value of a done marker ({@link RedisKeys#done}): a terminal outcome as a small integer,
 * which Redis keeps as a shared object, with no allocation of its own (claim.lua and
 * cancel.lua write it, enqueue.lua reads it too).
 */
public final class DoneMarker {

    /** The outcome of mark 1, 2, 3, 4. */
    private static final List<String> OUTCOMES = List.of("succeeded", "failed", "dead", "cancelled");

    private DoneMarker() {
    }

    /** The outcome a marker holds; a marker written before the codes holds the outcome's name itself. */
    public static String outcome(String mark) {
        return mark.length() == 1 && mark.charAt(0) >= '1' && mark.charAt(0) <= '4'
                ? OUTCOMES.get(mark.charAt(0) - '1') : mark;
    }
}
