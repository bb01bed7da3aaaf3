package io.dedupq.worker;

import java.util.List;

/**
 * Claims that the finisher makes for a queue's dispatcher: the call that records a group of
 * outcomes also claims as many new tasks as the group frees handler slots, in the same
 * round trip. Under load the slots then pass straight from finished tasks to new ones,
 * without waking the dispatcher and without a claim round trip of their own. All three are
 * called on the worker's event loop and never block.
 */
interface Refill {

    /**
     * How many tasks the call for a group that frees {@code freed} slots may claim along (0:
     * none, and neither of the others is called). Above 0 a refill is in flight until
     * {@link #claimed} or {@link #failed}.
     */
    int reserve(int freed);

    /** The refill's claims, started before the group's slots are given back. */
    void claimed(List<Claim> claims);

    /** The call failed: its reply, and copies it claimed, may be lost. */
    void failed();
}
