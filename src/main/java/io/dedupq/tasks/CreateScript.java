package io.dedupq.tasks;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** create.lua's arguments and reply, the only place that knows their positions. */
public final class CreateScript {

    private CreateScript() {
    }

    /** Writes {@code fields} to the hash at {@code key}, only if that hash does not exist yet. */
    public record Call(String key, Map<String, String> fields) {

        public ScriptCall script() {
            List<String> args = new ArrayList<>(2 * fields.size());
            fields.forEach((field, value) -> {
                args.add(field);
                args.add(value);
            });
            return new ScriptCall(LuaScript.CREATE, List.of(key), args);
        }
    }

    /** The reply: true when the hash was created, false when it existed already (nothing changed). */
    public static boolean created(Response reply) {
        return reply.toInteger() == 1;
    }
}
