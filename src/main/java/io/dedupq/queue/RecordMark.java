package io.dedupq.queue;

import java.util.List;

/**
 * The mark of a dedup record (RECORD_MARKS in lua/include/records.lua): a terminal outcome as a digit, which
 * claim.lua and cancel.lua write and enqueue.lua and recall.lua read back.
 */
public final class RecordMark {

    /** The outcome of mark 1, 2, 3, 4. */
    private static final List<String> OUTCOMES = List.of("succeeded", "failed", "dead", "cancelled");

    private RecordMark() {
    }

    /** The outcome of mark 1 to 4 (records.lua turns the names earlier markers held into marks). */
    public static String outcome(String mark) {
        return OUTCOMES.get(Integer.parseInt(mark) - 1);
    }
}
