package io.dedupq.queue;

import io.dedupq.config.DedupqConfig;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The one place in Java that spells Redis keys. Every key of a queue starts with the hash tag
 * {@code {<prefix>:<queue>}} so that each script touches a single cluster slot; scripts that
 * learn task ids only as they run (claim, enqueue, requeue) build lock:, done: and task: keys
 * from {@link #base} in the same way.
 */
@ApplicationScoped
public class RedisKeys {

    private final String prefix;

    public RedisKeys(DedupqConfig config) {
        this.prefix = config.keyPrefix();
    }

    /** {@code {prefix:queue}:} — scripts build the per-id keys (lock:, done:, task:) from it. */
    public String base(String queue) {
        return "{" + prefix + ":" + queue + "}:";
    }

    public String pending(String queue) {
        return base(queue) + "pending";
    }

    public String processing(String queue, String worker) {
        return base(queue) + "processing:" + worker;
    }

    public String delayed(String queue) {
        return base(queue) + "delayed";
    }

    public String dead(String queue) {
        return base(queue) + "dead";
    }

    public String lock(String queue, String id) {
        return base(queue) + "lock:" + id;
    }

    public String done(String queue, String id) {
        return base(queue) + "done:" + id;
    }

    public String task(String queue, String id) {
        return base(queue) + "task:" + id;
    }

    public String fence(String queue) {
        return base(queue) + "fence";
    }

    public String stats(String queue) {
        return base(queue) + "stats";
    }

    /** Workers that consume this queue, scored by last heartbeat (ms); same slot as the queue. */
    public String workers(String queue) {
        return base(queue) + "workers";
    }

    /** Every worker, scored by its last heartbeat (ms). */
    public String workers() {
        return prefix + ":workers";
    }

    /** Keys of the lock that lets one pod at a time run a named job (the reaper, one fire time of a schedule). */
    public String jobLock(String name) {
        return prefix + ":joblock:" + name;
    }

    /** The stats roll-ups of the example scheduled job, newest first. */
    public String rollups() {
        return prefix + ":rollups";
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
