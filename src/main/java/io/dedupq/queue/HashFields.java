package io.dedupq.queue;

import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reply of one HMGET read by field name: {@link #hmget} asks for the fields in a fixed
 * order, and the reply is looked up by the same names, so no reader counts positions.
 * Numbers are read tolerantly: a hash written by a producer's own script may hold "1e+17" or "12.5".
 */
public final class HashFields {

    private final Map<String, Response> values;

    public HashFields(List<String> names, Response reply) {
        values = new HashMap<>(names.size() * 2);
        for (int i = 0; i < names.size(); i++) {
            values.put(names.get(i), reply.get(i));
        }
    }

    /** HMGET of {@code names} from the hash at {@code key}. */
    public static KeyedCommand hmget(String key, List<String> names) {
        KeyedCommand hmget = KeyedCommand.of(Command.HMGET, key);
        names.forEach(hmget::arg);
        return hmget;
    }

    /** The field's raw value, null when the hash has none. */
    public Response raw(String name) {
        if (!values.containsKey(name)) {
            throw new IllegalArgumentException("field " + name + " was not asked for");
        }
        return values.get(name);
    }

    public String text(String name) {
        Response value = raw(name);
        return value == null ? null : value.toString();
    }

    /** The field as a whole number, 0 when absent or not a number (a counter never incremented). */
    public long count(String name) {
        Long n = number(name);
        return n == null ? 0 : n;
    }

    /** The field as a whole number, null when absent or not a number. */
    public Long number(String name) {
        String text = text(name);
        if (text == null) {
            return null;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException notWhole) {
            try {
                return (long) Double.parseDouble(text);
            } catch (NumberFormatException notNumber) {
                return null;
            }
        }
    }
}
