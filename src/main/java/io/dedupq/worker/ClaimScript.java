package io.dedupq.worker;

import io.dedupq.config.DedupqConfig.QueueConfig.PriorityOrder;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RateLimit;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.dedupq.queue.TaskStatus;
import io.vertx.mutiny.redis.client.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * claim.lua's arguments and reply, the only place that knows their positions: callers build a
 * {@link Call} and read a {@link Reply} by name.
 */
public final class ClaimScript {

    /** Arguments of an outcome with the most: id, envelope, token, outcome and a retry's three. */
    private static final int OUTCOME_FIELDS = 7;
    private static final int CLAIM_FIELDS = 5;

    private ClaimScript() {
    }

    /**
     * One call for {@code partition} by {@code worker}.
     *
     * @param max          most tasks to claim, 0 for none (a {@code moved} copy counts toward it)
     * @param moved        an envelope BLMOVE already put in the processing list, or null
     * @param lockTtlMillis          the lock's TTL
     * @param freshnessMillis        a heartbeat older than this (by Redis's clock) claims nothing
     * @param dedupWindowMillis      how long the done marker stays
     * @param resultRetentionMillis  how long a finished task's hash stays (at most the window)
     * @param outcomes     finished executions to record
     * @param rate         the queue's rate limit, or null for none
     * @param groupConcurrency most running executions per group, 0 for no limit
     * @param order        how the claim chooses between priority levels
     * @param groupRate    the rate limit of each group, or null for none
     */
    public record Call(Partition partition, String worker, int max, String moved, long lockTtlMillis,
            long freshnessMillis, long dedupWindowMillis, long resultRetentionMillis, List<Outcome> outcomes,
            RateLimit rate, int groupConcurrency, PriorityOrder order, RateLimit groupRate) {

        /** A call for a queue without a rate limit or group concurrency that takes the highest priority level first. */
        public Call(Partition partition, String worker, int max, String moved, long lockTtlMillis,
                long freshnessMillis, long dedupWindowMillis, long resultRetentionMillis, List<Outcome> outcomes) {
            this(partition, worker, max, moved, lockTtlMillis, freshnessMillis, dedupWindowMillis, resultRetentionMillis,
                    outcomes, null, 0, PriorityOrder.STRICT, null);
        }

        public ScriptCall script(RedisKeys keys) {
            List<String> args = new ArrayList<>(15 + OUTCOME_FIELDS * outcomes.size());
            args.add(keys.base(partition));
            args.add(worker);
            args.add(partition.queue());
            args.add(Integer.toString(max));
            args.add(Long.toString(lockTtlMillis));
            args.add(Long.toString(freshnessMillis));
            args.add(moved == null ? "" : moved);
            args.add(Long.toString(dedupWindowMillis));
            args.add(Long.toString(resultRetentionMillis));
            args.add(rate == null ? "0" : Integer.toString(rate.starts()));
            args.add(rate == null ? "0" : Long.toString(rate.window().toMillis()));
            args.add(Integer.toString(groupConcurrency));
            args.add(order == PriorityOrder.WEIGHTED ? "weighted" : "strict");
            args.add(groupRate == null ? "0" : Integer.toString(groupRate.starts()));
            args.add(groupRate == null ? "0" : Long.toString(groupRate.window().toMillis()));
            for (Outcome o : outcomes) {
                args.add(o.claim().id());
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
                            keys.stats(partition), keys.dead(partition), keys.workers(partition), keys.delayed(partition),
                            keys.paused(partition), keys.rate(partition), keys.parkedGroups(partition)),
                    args);
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

        static Held read(Response held) {
            String reason = held.get(0).toString();
            HeldBy by = switch (reason) {
                case "" -> HeldBy.NONE;
                case "paused" -> HeldBy.PAUSED;
                case "rate" -> HeldBy.RATE;
                case "parked" -> HeldBy.PARKED;
                default -> throw new IllegalStateException("claim.lua held claims for an unknown reason: " + reason);
            };
            return new Held(by, held.get(1).toLong());
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

        public static Reply read(Response reply) {
            List<Recorded> recorded = new ArrayList<>();
            reply.get(0).forEach(r -> recorded.add(switch (r.toInteger()) {
                case 1 -> Recorded.RECORDED;
                case 2 -> Recorded.CANCELLED;
                default -> Recorded.LOST;
            }));
            List<Dropped> dropped = new ArrayList<>();
            Response pairs = reply.get(4);
            for (int i = 0; i + 1 < pairs.size(); i += 2) {
                dropped.add(new Dropped(pairs.get(i).toString(), pairs.get(i + 1).toString()));
            }
            List<Claim> claims = new ArrayList<>();
            for (int i = 6; i + CLAIM_FIELDS - 1 < reply.size(); i += CLAIM_FIELDS) {
                claims.add(new Claim(reply.get(i).toString(), reply.get(i + 4).toString(), reply.get(i + 1).toString(),
                        reply.get(i + 2).toString(), reply.get(i + 3).toLong()));
            }
            return new Reply(recorded, reply.get(1).toInteger() == 1, reply.get(2).toInteger() == 1,
                    reply.get(3).toLong(), dropped, Held.read(reply.get(5)), claims);
        }
    }
}
