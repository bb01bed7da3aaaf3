package io.dedupq.queue;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A task's priority within its queue: a whole number from {@value #LOWEST} to {@value #HIGHEST},
 * higher runs first, FIFO within a level. A task that names none gets {@value #DEFAULT}, the
 * middle, so that a producer can mark work as more or as less urgent than the usual without
 * touching what it already sends. The default level is the queue's plain pending list, so
 * producers that push envelopes there keep working; the scripts know the same numbers.
 */
public final class Priority {

    public static final int LOWEST = 0;
    public static final int HIGHEST = 9;
    public static final int DEFAULT = 5;
    /**
     * What enqueue.lua pushes onto the default level's list when a task of another level arrives
     * while that list is empty, to wake a worker waiting there; claim.lua drops it. Never a task.
     */
    public static final String WAKE = "dedupq:wake";
    public static final String RULE = "must be a whole number from 0 (lowest) to 9 (highest); 5 when omitted";

    private Priority() {
    }

    public static boolean valid(int level) {
        return level >= LOWEST && level <= HIGHEST;
    }

    /** An envelope's {@code priority} field as the scripts read it: a level, or the default for anything else. */
    public static int of(JsonNode field) {
        if (field == null || !field.isNumber()) {
            return DEFAULT;
        }
        // a whole number in any JSON form (7 or 7.0): Lua's cjson cannot tell them apart
        double level = field.doubleValue();
        return level % 1 == 0 && level >= LOWEST && level <= HIGHEST ? (int) level : DEFAULT;
    }
}
