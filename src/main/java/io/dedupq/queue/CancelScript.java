package io.dedupq.queue;

import io.dedupq.config.DedupqConfig;
import io.vertx.mutiny.redis.client.Response;
import java.util.List;

/**
 * cancel.lua's arguments and reply, the only place that knows their positions: callers build a
 * {@link Call} and {@link #read} the reply by name.
 */
public final class CancelScript {

    private CancelScript() {
    }

    /**
     * Cancels task {@code id} of {@code partition} if it is waiting or running; its finishedAt is
     * Redis's time.
     *
     * @param dedupWindowMillis     how long the task's dedup record counts
     * @param resultRetentionMillis how long the task hash stays (at most the window)
     * @param dedupBuckets          the queue's dedupq.queues.&lt;q&gt;.dedup-buckets, for a partition without records yet
     */
    public record Call(Partition partition, String id, long dedupWindowMillis, long resultRetentionMillis,
            int dedupBuckets) {

        /** A call for a queue with the default dedup buckets. */
        public Call(Partition partition, String id, long dedupWindowMillis, long resultRetentionMillis) {
            this(partition, id, dedupWindowMillis, resultRetentionMillis, DedupqConfig.QueueConfig.DEFAULT_DEDUP_BUCKETS);
        }

        public ScriptCall script(RedisKeys keys) {
            return new ScriptCall(LuaScript.CANCEL,
                    List.of(keys.task(partition, id), keys.records(partition), keys.pending(partition),
                            keys.delayed(partition), keys.stats(partition), keys.lock(partition, id)),
                    List.of(id, Long.toString(dedupWindowMillis), Long.toString(resultRetentionMillis),
                            keys.cancelChannel(), keys.base(partition), Integer.toString(dedupBuckets)));
        }
    }

    /** What the script found. */
    public enum Answer {
        CANCELLED,
        /** No task hash: no such task, or its result retention has passed. */
        NO_TASK,
        /** Already terminal: left as it is. */
        TERMINAL
    }

    /** The reply; its status is "cancelled", the one that kept the task from being cancelled, or "" without a task. */
    public static StatusReply<Answer> read(Response reply) {
        return StatusReply.read(reply, Answer.CANCELLED, Answer.NO_TASK, Answer.TERMINAL);
    }
}
