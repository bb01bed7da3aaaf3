package io.dedupq.queue;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

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
 * @param lostLocks         outcomes refused because a newer execution owned the task
 * @param cancelled         waiting tasks cancelled before they ran
 * @param revived           dead-lettered tasks put back on pending by an operator
 * @param discarded         dead-letter records removed by an operator
 * @param paused            the queue is paused: workers start none of its tasks (a current state)
 * @param rateLimited       claim calls the queue's rate limit cut short, its window being full
 * @param waitingByPriority tasks in pending per priority level that has any, highest first (they sum to pending)
 * @param groupWaiting      copies parked because their group had group-concurrency tasks running or its
 *                          group-rate-limit window was full (a current size)
 * @param groupRateLimited  copies parked because their group's group-rate-limit window was full (a total)
 * @param waitingGroups     groups that have parked copies (a current size)
 * @param rateWindowStarts  tasks started in the rate limit's window that ends now, by Redis's clock (a current size)
 * @param controls          the limits the queue runs under, in the answering pod's configuration
 * @param partitions        a partitioned queue's counts per partition (its own counts are their sums); empty otherwise
 */
@RegisterForReflection
public record QueueStats(String queue, long pending, long processing, long delayed, long dead,
        long enqueued, long succeeded, long failed, long deadLettered, long unparseable, long retried,
        long duplicatesSkipped, long skippedDone, long skippedLocked, long skippedStale,
        long duplicatesRejected, long lostLocks, long cancelled, long revived, long discarded,
        boolean paused, long rateLimited, long groupWaiting, long groupRateLimited, Map<Integer, Long> waitingByPriority,
        @Schema(description = "groups that have copies parked (waiting for a free slot of their group) now")
        long waitingGroups,
        @Schema(description = "tasks started in the rate limit's window that ends now (Redis's clock); 0 without "
                + "a rate limit. Next to controls.rateLimit it says how much of the limit is used")
        long rateWindowStarts,
        QueueControls controls,
        List<QueueStats> partitions) {

    /** The counts of a partitioned queue: the sums over its partitions, which are listed too. */
    public static QueueStats total(String queue, List<QueueStats> parts) {
        return new QueueStats(queue, sum(parts, QueueStats::pending), sum(parts, QueueStats::processing),
                sum(parts, QueueStats::delayed), sum(parts, QueueStats::dead), sum(parts, QueueStats::enqueued),
                sum(parts, QueueStats::succeeded), sum(parts, QueueStats::failed), sum(parts, QueueStats::deadLettered),
                sum(parts, QueueStats::unparseable), sum(parts, QueueStats::retried),
                sum(parts, QueueStats::duplicatesSkipped), sum(parts, QueueStats::skippedDone),
                sum(parts, QueueStats::skippedLocked), sum(parts, QueueStats::skippedStale),
                sum(parts, QueueStats::duplicatesRejected), sum(parts, QueueStats::lostLocks),
                sum(parts, QueueStats::cancelled), sum(parts, QueueStats::revived), sum(parts, QueueStats::discarded),
                parts.stream().anyMatch(QueueStats::paused), sum(parts, QueueStats::rateLimited),
                sum(parts, QueueStats::groupWaiting), sum(parts, QueueStats::groupRateLimited), waitingByPriority(parts),
                sum(parts, QueueStats::waitingGroups), sum(parts, QueueStats::rateWindowStarts), parts.get(0).controls(),
                parts);
    }

    private static Map<Integer, Long> waitingByPriority(List<QueueStats> parts) {
        Map<Integer, Long> total = new TreeMap<>(Comparator.reverseOrder());
        parts.forEach(part -> part.waitingByPriority().forEach((level, n) -> total.merge(level, n, Long::sum)));
        return total;
    }

    private static long sum(List<QueueStats> parts, ToLongFunction<QueueStats> count) {
        return parts.stream().mapToLong(count).sum();
    }
}
