package io.dedupq.worker;

import java.util.List;
import java.util.function.IntFunction;

/**
 * Claims that the finisher makes for a queue's dispatcher: the call that records a group of
 * outcomes also claims as many new tasks as the group frees handler slots, in the same
 * round trip. Under load the slots then pass straight from finished tasks to new ones,
 * without waking the dispatcher and without a claim round trip of their own.
 */
interface Refill {

    /**
     * Runs {@code send}, which records the outcomes and claims the given number of tasks
     * along (0: claim none) and returns what it claimed. The claims run, holding the freed
     * slots, before this returns. A failure of {@code send} is passed on.
     */
    void refill(int freed, IntFunction<List<Claim>> send);
}
