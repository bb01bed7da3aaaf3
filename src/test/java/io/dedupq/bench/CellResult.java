package io.dedupq.bench;

import java.util.List;
import java.util.Map;

/**
 * One measured cell of the matrix, dedupq or BullMQ, in the same terms. Rates are tasks per
 * second; latencies ms; CPU from {@link CpuMeter} over the processing phase ("app" = the dedupq
 * worker JVMs or the node process).
 *
 * @param variant           dedupq: "http" or "lpush"; BullMQ: "dedup-option", "dedup-jobid", "plain"
 * @param refusedAtEnqueue  duplicates the producer side refused (dedupq HTTP; BullMQ's adds that created no job)
 * @param droppedByWorker   duplicate copies workers dropped without running them
 * @param executions        handler runs counted from the handler's own records
 * @param idsRunTwice       ids whose handler ran more than once
 * @param dupsAfterDone     overlap: duplicate copies sent after the first copy had finished (dedupq only, else -1)
 * @param dedupRedisUsecPerTask  Redis time (µs) per task in the commands that exist for dedup only, or -1
 * @param redisUsecPerTask  Redis time (µs) per task from INFO commandstats, each script once with the commands
 *                          it ran (they are not added again), or -1
 */
public record CellResult(String impl, String variant, int concurrency, int workers, boolean overlap, int jobs,
        int unique, double enqueueRate, double processingRate, double waitP50, double waitP99, double idlePickupP50,
        double idlePickupP99, long refusedAtEnqueue, long droppedByWorker, long executions, long idsRunTwice,
        long idsMissing, long dupsAfterDone, double dedupRedisUsecPerTask, double redisUsecPerTask, double appCpuPct,
        double redisCpuPct, double foreignCpuPct, Map<String, Double> extra, boolean timedOut) {

    /** Sections whose cells are marked in {@link #extra} and reported in their own tables, not the matrix's. */
    static final List<String> OWN_TABLE_SECTIONS = List.of("scaling", "dedupoff", "controls", "sql", "replicas");

    /** The section of its own this cell was marked for ("scaling", "dedupoff", "controls", "sql", "replicas"), or "" for the matrix and overlap. */
    public String section() {
        return OWN_TABLE_SECTIONS.stream().filter(extra::containsKey).findFirst().orElse("");
    }

    /** The cell's place in the tables: everything but the measured numbers. */
    public String key() {
        return impl + "|" + variant + "|" + concurrency + "|" + workers + "|" + overlap
                + (section().isEmpty() ? "" : "|" + section());
    }
}
