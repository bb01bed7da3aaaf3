package io.dedupq.queue;

import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import java.util.List;

/** One call of a Lua script, as EVALSHA (the normal way) or EVAL (when the node lacks the script). */
public record ScriptCall(LuaScript script, List<String> keys, List<String> args) {

    public Request evalsha() {
        return request(Command.EVALSHA, script.sha());
    }

    /** Runs the script from its source; Redis caches it, so later EVALSHA calls on that node work. */
    public Request eval() {
        return request(Command.EVAL, script.source());
    }

    /** The hash slot of the first key, which routes the call on a Cluster; keyless calls share slot -1. */
    public int slot() {
        return keys.isEmpty() ? -1 : HashSlot.of(keys.get(0));
    }

    private Request request(Command command, String body) {
        Request request = Request.cmd(command).arg(body).arg(keys.size());
        keys.forEach(request::arg);
        args.forEach(request::arg);
        return request;
    }
}
