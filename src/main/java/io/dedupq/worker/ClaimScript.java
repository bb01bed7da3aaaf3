package io.dedupq.worker;

import io.dedupq.config.DedupqConfig.QueueConfig;
import io.dedupq.config.DedupqConfig.QueueConfig.PriorityOrder;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RateLimit;
import io.dedupq.queue.RecordBucket;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.dedupq.queue.TaskStatus;
import io.vertx.mutiny.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * claim.lua's arguments and reply, the only place that knows their positions: callers build a
 * {@link Call} and read a {@link Reply} by name.
 */
public final class ClaimScript {

    /** Arguments of an outcome with the most: id, bucket, envelope, token, outcome and a retry's three. */
    private static final int OUTCOME_FIELDS = 8;
    private static final int CLAIM_FIELDS = 5;
    /** registered, drained, deadLettered, held reason, held wait. */
    private static final int HEAD_FIELDS = 5;

    private ClaimScript() {
    }

    /**
     * One call for {@code partition} by {@code worker}.
     *
     * @param max          most tasks to claim, 0 for none (a {@code moved} copy counts toward it)
     * @param moved        an envelope BLMOVE already put in the processing list, or null
     * @param lockTtlMillis          the lock's TTL
     * @param freshnessMillis        a heartbeat older than this (by Redis's clock) claims nothing
     * @param dedupWindowMillis      how long a finished task's dedup record counts
     * @param resultRetentionMillis  how long a finished task's hash stays (at most the window)
     * @param dedupBuckets the queue's dedupq.queues.&lt;q&gt;.dedup-buckets, for a partition without records yet
     * @param outcomes     finished executions to record
     * @param rate         the queue's rate limit, or null for none
     * @param groupConcurrency most running executions per group, 0 for no limit
     * @param order        how the claim chooses between priority levels
     * @param groupRate    the rate limit of each group, or null for none
     */
    public record Call(Partition partition, String worker, int max, String moved, long lockTtlMillis,
            long freshnessMillis, long dedupWindowMillis, long resultRetentionMillis, int dedupBuckets,
            List<Outcome> outcomes, RateLimit rate, int groupConcurrency, PriorityOrder order, RateLimit groupRate) {

        /** A call for a queue without a rate limit or group concurrency that takes the highest priority level first. */
        public Call(Partition partition, String worker, int max, String moved, long lockTtlMillis,
                long freshnessMillis, long dedupWindowMillis, long resultRetentionMillis, List<Outcome> outcomes) {
            this(partition, worker, max, moved, lockTtlMillis, freshnessMillis, dedupWindowMillis, resultRetentionMillis,
                    QueueConfig.DEFAULT_DEDUP_BUCKETS, outcomes, null, 0, PriorityOrder.STRICT, null);
        }

        public ScriptCall script(RedisKeys keys) {
            List<String> args = new ArrayList<>(10 + OUTCOME_FIELDS * outcomes.size());
            args.add(keys.base(partition));
            args.add(worker);
            args.add(Integer.toString(dedupBuckets));
            args.add(Integer.toString(max));
            args.add(Long.toString(lockTtlMillis));
            args.add(Long.toString(freshnessMillis));
            args.add(moved == null ? "" : moved);
            args.add(Long.toString(dedupWindowMillis));
            args.add(Long.toString(resultRetentionMillis));
            args.add(controls());
            for (Outcome o : outcomes) {
                args.add(o.claim().id());
                args.add(RecordBucket.of(o.claim().id(), dedupBuckets));
                args.add(o.claim().envelope());
                args.add(o.claim().token());
                args.add(o.status().wire());
                // each outcome carries only what its kind needs (claim.lua's header)
                args.add(o.detail());
                if (o.status() != TaskStatus.SUCCEEDED) {
                    args.add(o.next());
                }
                if (o.status() == TaskStatus.RETRYING) {
                    args.add(Long.toString(o.delay()));
                }
            }
            return new ScriptCall(LuaScript.CLAIM,
                    List.of(keys.pending(partition), keys.processing(partition, worker), keys.fence(partition),
                            keys.stats(partition), keys.dead(partition), keys.workers(partition), keys.delayed(partition)),
                    args);
        }

        /**
         * The controls as claim.lua reads them, by name ({@code rate=N/Wms group-concurrency=N
         * group-rate=N/Wms order=weighted}), and "" for a queue that has none: on the plain path
         * every argument Redis converts costs the call about as much as a small command.
         */
        String controls() {
            StringJoiner named = new StringJoiner(" ");
            if (rate != null) {
                named.add("rate=" + rate.starts() + "/" + rate.window().toMillis());
            }
            if (groupConcurrency > 0) {
                named.add("group-concurrency=" + groupConcurrency);
            }
            if (groupRate != null) {
                named.add("group-rate=" + groupRate.starts() + "/" + groupRate.window().toMillis());
            }
            if (order == PriorityOrder.WEIGHTED) {
                named.add("order=weighted");
            }
            return named.toString();
        }
    }

    /** What claim.lua did with one outcome. */
    public enum Recorded {
        RECORDED,
        /** That execution had lost its task to a newer one: nothing changed but its copy. */
        LOST,
        /** The task was cancelled while it ran: the outcome is discarded, its copy removed. */
        CANCELLED
    }

    /** A copy dropped instead of run: its type and why (done, locked or stale). */
    public record Dropped(String type, String reason) {
    }

    /**
     * Why claims are held: not at all, the queue is paused, or its rate window is full; or
     * PARKED: not held, but pending ran empty while copies of full groups wait aside.
     */
    public enum HeldBy {
        NONE, PAUSED, RATE, PARKED
    }

    /**
     * Claims held back by the queue's controls.
     *
     * @param by          what holds them
     * @param waitMillis  with {@link HeldBy#RATE}: in how long (Redis's clock) the next start is allowed;
     *                    with {@link HeldBy#PARKED}: in how long at most a parked group's rate window frees,
     *                    0 when no parked group waits for time alone
     */
    public record Held(HeldBy by, long waitMillis) {

        static Held read(Response reasonField, Response waitField) {
            String reason = reasonField.toString();
            HeldBy by = switch (reason) {
                case "" -> HeldBy.NONE;
                case "paused" -> HeldBy.PAUSED;
                case "rate" -> HeldBy.RATE;
                case "parked" -> HeldBy.PARKED;
                default -> throw new IllegalStateException("claim.lua held claims for an unknown reason: " + reason);
            };
            return new Held(by, waitField.toLong());
        }
    }

    /**
     * @param recorded     per outcome of the call, in order
     * @param registered   false when this worker's heartbeat was stale and nothing was claimed
     * @param drained      pending ran empty (or no claim was asked for)
     * @param deadLettered unparseable envelopes moved to the dead list
     * @param dropped      copies dropped as duplicates
     * @param held         whether the queue's controls (pause, rate limit) held claims back
     * @param claims       the copies now this worker's to run
     */
    public record Reply(List<Recorded> recorded, boolean registered, boolean drained, long deadLettered,
            List<Dropped> dropped, Held held, List<Claim> claims) {

        /** Reads claim.lua's flat reply: five fields, the counted outcomes, the counted dropped copies, then the claims. */
        public static Reply read(Response reply) {
            int at = HEAD_FIELDS;
            int outcomes = reply.get(at++).toInteger();
            List<Recorded> recorded = new ArrayList<>(outcomes);
            for (int end = at + outcomes; at < end; at++) {
                recorded.add(switch (reply.get(at).toInteger()) {
                    case 1 -> Recorded.RECORDED;
                    case 2 -> Recorded.CANCELLED;
                    default -> Recorded.LOST;
                });
            }
            int droppedCopies = reply.get(at++).toInteger();
            List<Dropped> dropped = new ArrayList<>(droppedCopies);
            for (int end = at + 2 * droppedCopies; at < end; at += 2) {
                dropped.add(new Dropped(reply.get(at).toString(), reply.get(at + 1).toString()));
            }
            List<Claim> claims = new ArrayList<>();
            for (; at + CLAIM_FIELDS - 1 < reply.size(); at += CLAIM_FIELDS) {
                claims.add(new Claim(reply.get(at).toString(), reply.get(at + 4).toString(), reply.get(at + 1).toString(),
                        reply.get(at + 2).toString(), reply.get(at + 3).toLong()));
            }
            return new Reply(recorded, reply.get(0).toInteger() == 1, reply.get(1).toInteger() == 1,
                    reply.get(2).toLong(), dropped, Held.read(reply.get(3), reply.get(4)), claims);
        }
    }
}
