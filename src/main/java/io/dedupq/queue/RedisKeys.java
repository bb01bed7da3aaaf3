package io.dedupq.queue;

import io.dedupq.config.DedupqConfig;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The one place in Java that spells Redis keys. Every key of a queue partition starts with the
 * hash tag {@code {<prefix>:<partition>}} ({@link Partition#name()}) so that each script touches
 * a single cluster slot; scripts that learn task ids only as they run (claim, enqueue, requeue)
 * build lock:, task: and the dedup records' keys from {@link #base} in the same way.
 */
@ApplicationScoped
public class RedisKeys {

    private final String prefix;

    public RedisKeys(DedupqConfig config) {
        this.prefix = config.keyPrefix();
    }

    /** {@code {prefix:partition}:} — scripts build the per-id keys (lock:, task:, records:) from it. */
    public String base(Partition partition) {
        return "{" + prefix + ":" + partition.name() + "}:";
    }

    /** The pending list of the default priority level: the one producers that push envelopes themselves use. */
    public String pending(Partition partition) {
        return base(partition) + "pending";
    }

    /**
     * The pending list of one priority level ({@link Priority}): the default level's is
     * {@link #pending(Partition)}, every other level's is {@code <pending>:<level>}. Scripts that move
     * envelopes (claim, promote, requeue, cancel) build the same names from the pending key they get.
     */
    public String pending(Partition partition, int level) {
        return level == Priority.DEFAULT ? pending(partition) : pending(partition) + ":" + level;
    }

    public String processing(Partition partition, String worker) {
        return base(partition) + "processing:" + worker;
    }

    public String delayed(Partition partition) {
        return base(partition) + "delayed";
    }

    public String dead(Partition partition) {
        return base(partition) + "dead";
    }

    public String lock(Partition partition, String id) {
        return base(partition) + "lock:" + id;
    }

    /**
     * The partition's dedup records layout (a hash: buckets, legacyUntil). Scripts build the record
     * buckets {@code records:<b>} and the one-key-per-id markers of earlier versions,
     * {@code done:<id>}, from {@link #base} (lua/include/records.lua).
     */
    public String records(Partition partition) {
        return base(partition) + "records";
    }

    public String task(Partition partition, String id) {
        return base(partition) + "task:" + id;
    }

    public String fence(Partition partition) {
        return base(partition) + "fence";
    }

    public String stats(Partition partition) {
        return base(partition) + "stats";
    }

    /**
     * The priority levels other than the default whose pending lists may hold tasks (a SET of digits): every script
     * that pushes onto such a list adds its level, claim.lua removes a level whose list it finds empty and looks at no
     * other level's list. claim.lua and enqueue.lua build the name from {@link #base}, as they do the pause flag's,
     * the rate log's and the parked groups' (a declared key costs their hot path an argument).
     */
    public String levels(Partition partition) {
        return base(partition) + "levels";
    }

    /** Exists while the queue is paused: claim.lua starts nothing from this partition. */
    public String paused(Partition partition) {
        return base(partition) + "paused";
    }

    /** The rate limit's sliding log: one entry per task started in the window, scored by its claim time (ms). */
    public String rate(Partition partition) {
        return base(partition) + "rate";
    }

    /**
     * The groups that have parked copies (group concurrency, group rate limit). claim.lua builds each group's own
     * keys from {@link #base}: {@code group:<g>} (running executions, token -> id) and
     * {@code parked:<g>} (copies waiting for a free slot of the group); with a group rate limit
     * {@code group-rate:<g>}, the group's sliding log of starts (token -> claim time, ms).
     */
    public String parkedGroups(Partition partition) {
        return base(partition) + "parked";
    }

    /** Workers that consume this partition, scored by last heartbeat (ms); same slot as its other keys. */
    public String workers(Partition partition) {
        return base(partition) + "workers";
    }

    /** Every worker, scored by its last heartbeat (ms). */
    public String workers() {
        return prefix + ":workers";
    }

    /**
     * The pub/sub channel on which cancel.lua announces the cancel of a running task. One for all
     * queues: a worker subscribes once whatever it consumes, and on a Cluster a PUBLISH reaches
     * every node's subscribers anyway (per-partition channels would cost a SUBSCRIBE each and
     * route no better). Cancels are rare operator actions, so every worker hearing each costs little.
     */
    public String cancelChannel() {
        return prefix + ":cancel";
    }

    /** Keys of the lock that lets one pod at a time run a named job (the reaper, one fire time of a schedule). */
    public String jobLock(String name) {
        return prefix + ":joblock:" + name;
    }

    /**
     * The stats roll-ups of the example scheduled job, scored by fire time: pods finish ticks
     * out of order, so the order comes from the score, not from when an entry was written.
     */
    public String rollups() {
        return prefix + ":rollups:by-tick";
    }

    public String account(String id) {
        return prefix + ":account:{" + id + "}";
    }

    public String accountLedger(String id) {
        return account(id) + ":ledger";
    }

    public String accountApplied(String id) {
        return account(id) + ":applied";
    }

    public String campaign(String id) {
        return prefix + ":campaign:{" + id + "}";
    }

    public String campaignVouchers(String id) {
        return campaign(id) + ":vouchers";
    }

    public String campaignIssued(String id) {
        return campaign(id) + ":issued";
    }

    public String campaignCodes(String id) {
        return campaign(id) + ":codes";
    }
}
