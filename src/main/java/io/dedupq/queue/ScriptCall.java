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
        // one array of the call's size: a batch's call carries thousands of arguments, and growing
        // the request's list by one argument at a time took 7 % of an API pod's samples
        Object[] all = new Object[2 + keys.size() + args.size()];
        all[0] = body;
        all[1] = keys.size();
        int i = 2;
        for (String key : keys) {
            all[i++] = key;
        }
        for (String arg : args) {
            all[i++] = arg;
        }
        return Request.cmd(command, all);
    }
}
