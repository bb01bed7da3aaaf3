package io.dedupq.queue;

import java.util.List;

/**
 * The mark of a dedup record (lua/include/records.lua): a terminal outcome as a digit, which
 * claim.lua and cancel.lua write and enqueue.lua and recall.lua read back.
 */
public final class RecordMark {

    /** The outcome of mark 1, 2, 3, 4. */
    private static final List<String> OUTCOMES = List.of("succeeded", "failed", "dead", "cancelled");

    private RecordMark() {
    }

    /** The outcome of a mark; a marker of an earlier version may hold the outcome's name itself. */
    public static String outcome(String mark) {
        return mark.length() == 1 && mark.charAt(0) >= '1' && mark.charAt(0) <= '4'
                ? OUTCOMES.get(mark.charAt(0) - '1') : mark;
    }
}
