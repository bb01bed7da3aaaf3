package io.dedupq.queue;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Access to Redis: blocking calls for callers on worker threads, a non-blocking script pipeline
 * for the HTTP enqueue path, and script calls by SHA.
 * Works the same on a standalone Redis and on Redis Cluster:
 * <ul>
 * <li>A pipeline is split into one write per hash slot (sent at once, replies put back in
 * order): a cluster node refuses a pipeline whose keys live on another node.</li>
 * <li>A NOSCRIPT reply (a restarted node, or a cluster node that never saw the script) is
 * answered by sending the same call once more as EVAL with the script's source, which routes
 * by the call's keys to the node that needs it and leaves the script cached there.</li>
 * </ul>
 * Every failure surfaces as {@link StoreUnavailableException} ({@link RedisFullException} when
 * Redis refused it for want of memory).
 */
@ApplicationScoped
public class RedisCalls {

    /** Longest wait for a reply to a non-blocking command before the call fails. */
    public static final Duration REPLY_TIMEOUT = Duration.ofSeconds(5);

    private final Redis redis;
    private final RefusedWrites refusals;

    public RedisCalls(Redis redis, RefusedWrites refusals) {
        this.redis = redis;
        this.refusals = refusals;
    }

    public Response send(Request request) {
        return send(request, REPLY_TIMEOUT);
    }

    public Response send(Request request, Duration timeout) {
        return await(redis.send(request), timeout);
    }

    /** The Redis server's time (ms): the clock every liveness and due-time decision is made by, never a pod's. */
    public long serverMillis() {
        Response time = send(Request.cmd(Command.TIME));
        return time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
    }

    /** Pipelines the commands (one write per hash slot of their keys); replies come back in command order. */
    public List<Response> batch(List<KeyedCommand> commands) {
        return await(pipeline(commands, KeyedCommand::slot,
                group -> redis.batch(group.stream().map(KeyedCommand::request).toList())), REPLY_TIMEOUT);
    }

    public Response script(LuaScript script, List<String> keys, List<String> args) {
        return script(new ScriptCall(script, keys, args));
    }

    public Response script(ScriptCall call) {
        return await(redis.send(call.evalsha())
                .onFailure(RedisCalls::isNoScript).recoverWithUni(() -> redis.send(call.eval())), REPLY_TIMEOUT);
    }

    /**
     * Several script calls pipelined (one write per hash slot). On NOSCRIPT the calls of that
     * slot are sent again as EVAL: only for calls that are safe to run again as a group.
     */
    public List<Response> scripts(List<ScriptCall> calls) {
        return await(scriptsAsync(calls), REPLY_TIMEOUT);
    }

    /**
     * {@link #scripts} without blocking, for callers on an event loop: the reply arrives on the
     * Redis client's loop and nothing waits for it. Fails as {@link #scripts} does; no timeout
     * here: the caller's guard sets it.
     */
    public Uni<List<Response>> scriptsAsync(List<ScriptCall> calls) {
        return failures(pipeline(calls, ScriptCall::slot, group -> withNoScriptRetry(group, List.of())));
    }

    /**
     * {@link #scriptsAsync}, each slot's pipeline followed by {@code WAIT replicas timeout} on the
     * same connection (WAIT counts the replicas that acknowledged that connection's writes, and
     * is sent to the node of the keys), so that a reply means "on the master and on
     * {@code replicas} replicas". Fails with {@link NotReplicatedException} when a WAIT counted
     * fewer: the scripts ran on the master and a failover may still lose them.
     */
    public Uni<List<Response>> scriptsReplicatedAsync(List<ScriptCall> calls, int replicas, Duration timeout) {
        Request wait = Request.cmd(Command.WAIT).arg(replicas).arg(timeout.toMillis());
        return failures(pipeline(calls, ScriptCall::slot,
                group -> replicated(withNoScriptRetry(group, List.of(wait)), replicas)));
    }

    /** The group as EVALSHA calls (then {@code after}); on NOSCRIPT the same again as EVAL. */
    private Uni<List<Response>> withNoScriptRetry(List<ScriptCall> group, List<Request> after) {
        return redis.batch(followedBy(group, ScriptCall::evalsha, after))
                .onFailure(RedisCalls::isNoScript)
                .recoverWithUni(() -> redis.batch(followedBy(group, ScriptCall::eval, after)));
    }

    private static List<Request> followedBy(List<ScriptCall> group, Function<ScriptCall, Request> request,
            List<Request> after) {
        List<Request> requests = new ArrayList<>(group.size() + after.size());
        group.forEach(call -> requests.add(request.apply(call)));
        requests.addAll(after);
        return requests;
    }

    /** The replies without the last one, WAIT's, which must count at least {@code replicas}. */
    private static Uni<List<Response>> replicated(Uni<List<Response>> replies, int replicas) {
        return replies.map(all -> {
            long acknowledged = all.get(all.size() - 1).toLong();
            if (acknowledged < replicas) {
                throw new NotReplicatedException(acknowledged, replicas);
            }
            return all.subList(0, all.size() - 1);
        });
    }

    /** A failed call as what callers catch ({@link RefusedWrites}). */
    private <T> Uni<T> failures(Uni<T> reply) {
        return reply.onFailure().transform(refusals::failure);
    }

    /** Groups the items by hash slot, sends each group as one pipeline, puts the replies back in order. */
    private static <T> Uni<List<Response>> pipeline(List<T> items, ToIntFunction<T> slot,
            Function<List<T>, Uni<List<Response>>> sender) {
        if (items.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i++) {
            bySlot.computeIfAbsent(slot.applyAsInt(items.get(i)), s -> new ArrayList<>()).add(i);
        }
        if (bySlot.size() == 1) {
            return sender.apply(items);
        }
        List<List<Integer>> groups = new ArrayList<>(bySlot.values());
        List<Uni<List<Response>>> writes = new ArrayList<>();
        for (List<Integer> group : groups) {
            writes.add(sender.apply(group.stream().map(items::get).toList()));
        }
        return Uni.join().all(writes).andFailFast().map(replies -> {
            Response[] ordered = new Response[items.size()];
            for (int g = 0; g < groups.size(); g++) {
                for (int k = 0; k < groups.get(g).size(); k++) {
                    ordered[groups.get(g).get(k)] = replies.get(g).get(k);
                }
            }
            return Arrays.asList(ordered);
        });
    }

    private <T> T await(Uni<T> reply, Duration timeout) {
        try {
            return reply.await().atMost(timeout);
        } catch (RuntimeException e) {
            throw refusals.failure(e);
        }
    }

    /** A single reply starts with NOSCRIPT; a pipeline's failure reads "ERR [i] NOSCRIPT ...". */
    public static boolean isNoScript(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("NOSCRIPT No matching script")) {
                return true;
            }
        }
        return false;
    }
}
