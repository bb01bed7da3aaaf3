package io.dedupq.queue;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Counts for one queue. The first four are current sizes; the rest are totals since the
 * queue's stats hash was created.
 *
 * @param failed            tasks that ended failed (permanent) or dead (attempts used up)
 * @param deadLettered      entries written to the dead list: failed and dead tasks, and unparseable entries
 * @param unparseable       entries on pending that were not a task envelope at all
 * @param duplicatesSkipped copies dropped by workers instead of running (sum of the three below)
 * @param skippedDone       dropped because the id had already finished (done marker)
 * @param skippedLocked     dropped because another copy of the id held the lock
 * @param skippedStale      dropped because the id had moved on to a later attempt
 * @param duplicatesRejected submissions of a known id refused at enqueue
 */
@RegisterForReflection
public record QueueStats(String queue, long pending, long processing, long delayed, long dead,
        long enqueued, long succeeded, long failed, long deadLettered, long unparseable, long retried,
        long duplicatesSkipped, long skippedDone, long skippedLocked, long skippedStale,
        long duplicatesRejected, long lostLocks) {
}
