package io.dedupq.queue;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

/**
 * How dedupq talks to Redis, the same on a standalone Redis and on a Cluster: each command goes
 * to the node of its keys' hash slot ({@link RedisNodes}). Everything here is non-blocking;
 * replies complete on the clients' event loop.
 * <ul>
 * <li>A script call goes by SHA. A NOSCRIPT reply (a restarted node, or a cluster node that never
 * saw the script) is answered by sending the same call once more as EVAL with the script's
 * source, which routes by the call's keys to the node that needs it and leaves the script cached
 * there.</li>
 * <li>A pipeline is split into one write per hash slot of the keys each call declares (a cluster
 * node refuses a pipeline whose keys live on another node); the writes go at once and the
 * replies are put back in order.</li>
 * <li>Every reply has a timeout, and every failure is a {@link StoreUnavailableException}
 * ({@link RedisFullException} when Redis refused it for want of memory, {@link TooFewReplicasException}
 * for want of replicas).</li>
 * </ul>
 */
public final class RedisGateway {

    /** Longest wait for a reply to a non-blocking command before the call fails. */
    public static final Duration REPLY_TIMEOUT = Duration.ofSeconds(5);

    private final RedisNodes nodes;
    private final WriteFailures writeFailures;

    RedisGateway(RedisNodes nodes, WriteFailures writeFailures) {
        this.nodes = nodes;
        this.writeFailures = writeFailures;
    }

    /**
     * One command, routed by its key; {@code timeout} bounds the wait (a blocking command needs
     * its own wait plus {@link #REPLY_TIMEOUT}).
     */
    public Future<Response> send(KeyedCommand command, Duration timeout) {
        return guarded(nodes.send(command.slot(), command.request().getDelegate()), timeout);
    }

    /** One script call. */
    public Future<Response> script(ScriptCall call) {
        return guarded(nodes.send(call.slot(), call.evalsha().getDelegate())
                .recover(e -> isNoScript(e) ? nodes.send(call.slot(), call.eval().getDelegate()) : Future.failedFuture(e)),
                REPLY_TIMEOUT);
    }

    /** The commands pipelined (one write per hash slot of their keys); replies in command order. */
    public Future<List<Response>> batch(List<KeyedCommand> commands) {
        return guarded(bySlot(commands, KeyedCommand::slot,
                (slot, group) -> nodes.batch(slot, group.stream().map(c -> c.request().getDelegate()).toList())),
                REPLY_TIMEOUT);
    }

    /**
     * Script calls pipelined (one write per hash slot); replies in call order. On NOSCRIPT a
     * slot's calls are sent again as EVAL: only for calls that are safe to run again as a group.
     */
    public Future<List<Response>> scripts(List<ScriptCall> calls) {
        return scripts(calls, List.of(), replies -> replies);
    }

    /**
     * {@link #scripts(List)}, each slot's pipeline followed by {@code WAIT replicas timeout} on
     * the same connection (WAIT counts the replicas that acknowledged that connection's writes,
     * and goes to the node of the keys), so that a reply means "on the master and on
     * {@code replicas} replicas". Fails with {@link NotReplicatedException} when a WAIT counted
     * fewer: the scripts ran on the master and a failover may still lose them.
     */
    public Future<List<Response>> scriptsReplicated(List<ScriptCall> calls, int replicas, Duration timeout) {
        Request wait = Request.cmd(Command.WAIT).arg(replicas).arg(timeout.toMillis());
        return scripts(calls, List.of(wait), all -> {
            long acknowledged = all.get(all.size() - 1).toLong();
            if (acknowledged < replicas) {
                throw writeFailures.notReplicated(acknowledged, replicas);
            }
            return all.subList(0, all.size() - 1);
        });
    }

    /**
     * One script call that, with {@code replicas} above 0, counts only once that many replicas
     * have it: sent as {@link #scriptsReplicated} (a pipeline of the call and WAIT), failing with
     * {@link NotReplicatedException} when fewer acknowledged. With 0 it is {@link #script}: no WAIT.
     */
    public Future<Response> script(ScriptCall call, int replicas, Duration timeout) {
        return replicas == 0 ? script(call) : scriptsReplicated(List.of(call), replicas, timeout).map(replies -> replies.get(0));
    }

    /**
     * Each slot's pipeline is followed by {@code after} on the same connection; {@code check}
     * gets each slot's replies, those of {@code after} last, and returns the calls' own (or fails).
     */
    private Future<List<Response>> scripts(List<ScriptCall> calls, List<Request> after,
            UnaryOperator<List<Response>> check) {
        return guarded(bySlot(calls, ScriptCall::slot, (slot, group) -> nodes.batch(slot, requests(group, ScriptCall::evalsha, after))
                .recover(e -> isNoScript(e) ? nodes.batch(slot, requests(group, ScriptCall::eval, after)) : Future.failedFuture(e))
                .map(check)), REPLY_TIMEOUT);
    }

    private static boolean isNoScript(Throwable e) {
        return RedisReplies.say(e, RedisReplies.NO_SCRIPT);
    }

    private static List<Request> requests(List<ScriptCall> group,
            Function<ScriptCall, io.vertx.mutiny.redis.client.Request> request, List<Request> after) {
        List<Request> requests = new ArrayList<>(group.size() + after.size());
        group.forEach(call -> requests.add(request.apply(call).getDelegate()));
        requests.addAll(after);
        return requests;
    }

    /** Groups the items by hash slot, sends each group as one pipeline, puts the replies back in order. */
    private static <T> Future<List<Response>> bySlot(List<T> items, ToIntFunction<T> slot,
            BiFunction<Integer, List<T>, Future<List<Response>>> sender) {
        if (items.isEmpty()) {
            return Future.succeededFuture(List.of());
        }
        Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i++) {
            bySlot.computeIfAbsent(slot.applyAsInt(items.get(i)), s -> new ArrayList<>()).add(i);
        }
        if (bySlot.size() == 1) {
            return sender.apply(bySlot.keySet().iterator().next(), items);
        }
        List<List<Integer>> groups = new ArrayList<>(bySlot.values());
        List<Future<List<Response>>> writes = new ArrayList<>();
        bySlot.forEach((groupSlot, group) -> writes.add(sender.apply(groupSlot, group.stream().map(items::get).toList())));
        return Future.all(writes).map(all -> {
            Response[] ordered = new Response[items.size()];
            for (int g = 0; g < groups.size(); g++) {
                List<Response> replies = all.resultAt(g);
                for (int k = 0; k < groups.get(g).size(); k++) {
                    ordered[groups.get(g).get(k)] = replies.get(k);
                }
            }
            return Arrays.asList(ordered);
        });
    }

    private <T> Future<T> guarded(Future<T> reply, Duration timeout) {
        return reply.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .recover(e -> Future.failedFuture(writeFailures.failure(e)));
    }
}
