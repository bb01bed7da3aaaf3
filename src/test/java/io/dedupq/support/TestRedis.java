package io.dedupq.support;

import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * The few plain Redis commands tests use to set up and inspect state, through the app's own
 * connection to the test Redis (so they never reach any other server).
 */
@ApplicationScoped
public class TestRedis {

    private final RedisCalls redis;

    public TestRedis(RedisCalls redis) {
        this.redis = redis;
    }

    public String get(String key) {
        return text(redis.send(Request.cmd(Command.GET).arg(key)));
    }

    public void set(String key, String value, long pxMillis) {
        redis.send(Request.cmd(Command.SET).arg(key).arg(value).arg("PX").arg(pxMillis));
    }

    public long incr(String key) {
        return redis.send(Request.cmd(Command.INCR).arg(key)).toLong();
    }

    public void del(String key) {
        redis.send(Request.cmd(Command.DEL).arg(key));
    }

    public void hdel(String key, String field) {
        redis.send(Request.cmd(Command.HDEL).arg(key).arg(field));
    }

    public boolean exists(String key) {
        return redis.send(Request.cmd(Command.EXISTS).arg(key)).toLong() == 1;
    }

    /** Redis's clock (TIME), in ms. */
    public long serverMillis() {
        return redis.serverMillis();
    }

    public long pttl(String key) {
        return redis.send(Request.cmd(Command.PTTL).arg(key)).toLong();
    }

    /** CONFIG SET, as an operator would change the server at runtime. */
    public void configSet(String parameter, String value) {
        redis.send(Request.cmd(Command.CONFIG).arg("SET").arg(parameter).arg(value));
    }

    public String hget(String key, String field) {
        return text(redis.send(Request.cmd(Command.HGET).arg(key).arg(field)));
    }

    /** HSET key field value [field value ...] */
    public void hset(String key, String... fieldsAndValues) {
        Request hset = Request.cmd(Command.HSET).arg(key);
        for (String arg : fieldsAndValues) {
            hset.arg(arg);
        }
        redis.send(hset);
    }

    public void lpush(String key, String... values) {
        Request push = Request.cmd(Command.LPUSH).arg(key);
        for (String value : values) {
            push.arg(value);
        }
        redis.send(push);
    }

    public void zadd(String key, long score, String member) {
        redis.send(Request.cmd(Command.ZADD).arg(key).arg(score).arg(member));
    }

    /**
     * Makes the delayed copies of task {@code id} due now, so that a test need not wait out its
     * queue's backoff; XX: a copy promoted meanwhile is not put back.
     */
    public void dueNow(String delayedKey, String id) {
        zrange(delayedKey).stream().filter(copy -> copy.contains(id))
                .forEach(copy -> redis.send(Request.cmd(Command.ZADD).arg(delayedKey).arg("XX").arg(0).arg(copy)));
    }

    public double zscore(String key, String member) {
        return redis.send(Request.cmd(Command.ZSCORE).arg(key).arg(member)).toDouble();
    }

    public long llen(String key) {
        return redis.send(Request.cmd(Command.LLEN).arg(key)).toLong();
    }

    public List<String> lrange(String key) {
        List<String> values = new ArrayList<>();
        redis.send(Request.cmd(Command.LRANGE).arg(key).arg(0).arg(-1)).forEach(r -> values.add(r.toString()));
        return values;
    }

    public List<String> zrange(String key) {
        List<String> values = new ArrayList<>();
        redis.send(Request.cmd(Command.ZRANGE).arg(key).arg(0).arg(-1)).forEach(r -> values.add(r.toString()));
        return values;
    }

    /** Every key matching the glob {@code pattern}, by SCAN. */
    public List<String> keys(String pattern) {
        List<String> found = new ArrayList<>();
        String cursor = "0";
        do {
            Response page = redis.send(Request.cmd(Command.SCAN).arg(cursor).arg("MATCH").arg(pattern).arg("COUNT").arg(1000));
            cursor = page.get(0).toString();
            page.get(1).forEach(key -> found.add(key.toString()));
        } while (!cursor.equals("0"));
        return found;
    }

    public Response script(ScriptCall call) {
        return redis.script(call);
    }

    private static String text(Response value) {
        return value == null ? null : value.toString();
    }
}
