package io.dedupq.worker;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.redis.client.Response;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * requeue.lua's arguments and reply, the only place that knows their positions: callers build a
 * {@link Call} with one of its three modes and read a {@link Reply} by name.
 */
public final class RequeueScript {

    private RequeueScript() {
    }

    /** Whose copies go back, and how the worker's heartbeat is judged or left. */
    public enum Mode {
        /** The given copies of a live worker that nothing runs. */
        GIVEN,
        /** A stopping worker's whole list; its heartbeat is left behind already expired. */
        ALL,
        /** The whole list of a worker whose heartbeat is (still, by Redis's clock) expired. */
        EXPIRED
    }

    /**
     * One call for {@code worker}'s processing list in {@code partition}.
     *
     * @param ageMillis         expired: the heartbeat age past which the worker is dead; all: how old the
     *                          heartbeat left behind is; given: 0
     * @param forgetAfterMillis expired: the worker is forgotten once its list is empty and its heartbeat older; otherwise 0
     * @param envelopes         given: the copies to requeue; otherwise empty
     * @param runningTokens     given: tokens of executions still running on the worker, whose locks stay; otherwise empty
     */
    public record Call(Partition partition, String worker, Mode mode, long ageMillis, long forgetAfterMillis,
            List<String> envelopes, Collection<String> runningTokens) {

        public static Call given(Partition partition, String worker, List<String> envelopes,
                Collection<String> runningTokens) {
            return new Call(partition, worker, Mode.GIVEN, 0, 0, envelopes, runningTokens);
        }

        public static Call all(Partition partition, String worker, long heartbeatAgeMillis) {
            return new Call(partition, worker, Mode.ALL, heartbeatAgeMillis, 0, List.of(), List.of());
        }

        public static Call expired(Partition partition, String worker, long expiryMillis, long forgetAfterMillis) {
            return new Call(partition, worker, Mode.EXPIRED, expiryMillis, forgetAfterMillis, List.of(), List.of());
        }

        public ScriptCall script(RedisKeys keys) {
            List<String> args = new ArrayList<>(List.of(keys.base(partition), worker, mode.name().toLowerCase(Locale.ROOT),
                    Long.toString(ageMillis), Long.toString(forgetAfterMillis)));
            if (mode == Mode.GIVEN) {
                args.add(Integer.toString(envelopes.size()));
                args.addAll(envelopes);
                args.addAll(runningTokens);
            }
            return new ScriptCall(LuaScript.REQUEUE,
                    List.of(keys.processing(partition, worker), keys.pending(partition), keys.workers(partition),
                            keys.levels(partition)), args);
        }
    }

    /** @param types the type of each copy that went back to pending ("unknown" when its envelope does not read) */
    public record Reply(List<String> types) {

        public static Reply read(Response reply) {
            List<String> types = new ArrayList<>();
            reply.forEach(type -> types.add(type.toString()));
            return new Reply(types);
        }
    }
}
