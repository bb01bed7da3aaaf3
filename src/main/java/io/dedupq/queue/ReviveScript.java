package io.dedupq.queue;

import io.vertx.mutiny.redis.client.Response;
import java.util.List;

/**
 * revive.lua's arguments and reply, the only place that knows their positions: callers build a
 * {@link Call} and {@link #read} the reply by name.
 */
public final class ReviveScript {

    private ReviveScript() {
    }

    /**
     * Puts task {@code id} of {@code partition} back on pending as {@code envelope} (attempt 0),
     * if {@code deadRecord} is still in the partition's dead list.
     *
     * @param deadRecord the record exactly as it is in the dead list
     * @param type       the task's type, written to its hash
     * @param nowMillis  the task's enqueuedAt when its hash had expired
     * @param priority   the task's level ({@link Priority}), whose pending list it goes to
     */
    public record Call(Partition partition, String id, String deadRecord, String envelope, String type, long nowMillis,
            int priority) {

        public ScriptCall script(RedisKeys keys) {
            return new ScriptCall(LuaScript.REVIVE,
                    List.of(keys.task(partition, id), keys.records(partition), keys.pending(partition, priority),
                            keys.dead(partition), keys.stats(partition), keys.pending(partition), keys.levels(partition)),
                    List.of(deadRecord, envelope, type, Long.toString(nowMillis),
                            priority == Priority.DEFAULT ? "" : Integer.toString(priority), keys.base(partition), id));
        }
    }

    /** What the script found. */
    public enum Answer {
        REVIVED,
        /** The record is no longer in the dead list. */
        RECORD_GONE,
        /** The task is not dead-lettered now (it was revived or enqueued again). */
        NOT_DEAD
    }

    /** The reply; its status is "queued" when revived, the one that kept the task otherwise, "" when the record was gone. */
    public static StatusReply<Answer> read(Response reply) {
        return StatusReply.read(reply, Answer.REVIVED, Answer.RECORD_GONE, Answer.NOT_DEAD);
    }
}
