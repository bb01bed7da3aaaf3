package io.dedupq.queue;

import io.dedupq.config.DedupqConfig;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends the enqueues made on one event loop during one turn of it as one enqueue.lua call per
 * partition, so that concurrent single-task POSTs cost Redis one script call and the client one
 * request between them instead of one each (measured: Redis's CPU per task about halves from four
 * tasks a call). The first enqueue of a turn schedules the send at the end of the loop's tasks;
 * those that follow in the same turn join it. Each caller gets the answers of its own tasks; a
 * partition's call that fails fails the callers with tasks in it, and no others (on a Cluster
 * the other partitions may live on masters that answer). Off an event loop (a blocking enqueue on a worker
 * thread), and for a batch of {@value #TURN_TASKS} tasks or more, a call is sent on its own.
 * enqueue.lua takes its tasks one after the other, so two callers' tasks with the same id in one
 * call are answered as if sent one after the other.
 */
@ApplicationScoped
public class EnqueueCoalescer {

    /**
     * The most tasks one turn's call carries, the batch endpoint's default maximum: a script call
     * holds Redis for its whole run, so several batches are not merged into one longer call.
     */
    private static final int TURN_TASKS = 1000;

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final Clock clock;
    private final DedupqConfig.Durability durability;
    private final QueuePartitions partitions;
    /** The turn being gathered on this event loop thread; only that thread reads or writes it. */
    private final ThreadLocal<Turn> gathering = new ThreadLocal<>();

    public EnqueueCoalescer(RedisCalls redis, RedisKeys keys, Clock clock, DedupqConfig config, QueuePartitions partitions) {
        this.redis = redis;
        this.keys = keys;
        this.clock = clock;
        this.durability = config.durability();
        this.partitions = partitions;
    }

    /**
     * The answers to {@code tasks}, one list per partition in the map's order, each in its
     * tasks' order. Sent when subscribed, again at every subscription (the caller's guard may retry).
     */
    public Uni<List<List<EnqueueScript.Answer>>> answers(Map<Partition, List<EnqueueScript.Task>> tasks) {
        return Uni.createFrom().deferred(() -> {
            int size = tasks.values().stream().mapToInt(List::size).sum();
            Context context = Vertx.currentContext();
            if (context == null || !Context.isOnEventLoopThread() || size >= TURN_TASKS) {
                Turn alone = new Turn();
                Uni<List<List<EnqueueScript.Answer>>> answers = alone.join(tasks);
                alone.send();
                return answers;
            }
            Turn turn = gathering.get();
            if (turn == null || turn.size + size > TURN_TASKS) {
                Turn next = new Turn();
                gathering.set(next);
                context.runOnContext(v -> {
                    // a full turn is replaced by the next while it waits: that one stays
                    if (gathering.get() == next) {
                        gathering.remove();
                    }
                    next.send();
                });
                turn = next;
            }
            return turn.join(tasks);
        });
    }

    /** The enqueues of one turn: their tasks per partition, and where each caller's begin. */
    private final class Turn {

        private final Map<Partition, List<EnqueueScript.Task>> tasks = new LinkedHashMap<>();
        private final List<Caller> callers = new ArrayList<>();
        private int size;

        /** A caller's tasks in one partition's call: {@code size} of them from position {@code from}. */
        private record Share(Partition partition, int from, int size) {
        }

        /** A caller's shares, in the order of its partitions, and its promise. */
        private record Caller(List<Share> shares, Promise<List<List<EnqueueScript.Answer>>> promise) {
        }

        Uni<List<List<EnqueueScript.Answer>>> join(Map<Partition, List<EnqueueScript.Task>> own) {
            List<Share> shares = new ArrayList<>(own.size());
            own.forEach((partition, list) -> {
                List<EnqueueScript.Task> all = tasks.computeIfAbsent(partition, p -> new ArrayList<>());
                shares.add(new Share(partition, all.size(), list.size()));
                all.addAll(list);
                size += list.size();
            });
            Promise<List<List<EnqueueScript.Answer>>> promise = Promise.promise();
            callers.add(new Caller(shares, promise));
            return UniHelper.toUni(promise.future());
        }

        /** One call per partition, all written at once (each partition is a hash slot of its own). */
        void send() {
            Map<Partition, Future<List<EnqueueScript.Answer>>> answers = new LinkedHashMap<>();
            long now = clock.millis();
            tasks.forEach((partition, own) -> answers.put(partition, answers(partition, own, now)));
            for (Caller caller : callers) {
                List<Future<List<EnqueueScript.Answer>>> own = caller.shares().stream()
                        .map(share -> answers.get(share.partition())).toList();
                Future.all(own).map(all -> caller.shares().stream()
                        .map(share -> answers.get(share.partition()).result().subList(share.from(), share.from() + share.size()))
                        .toList()).onComplete(caller.promise());
            }
        }

        private Future<List<EnqueueScript.Answer>> answers(Partition partition, List<EnqueueScript.Task> own, long now) {
            try {
                DedupqConfig.QueueConfig queue = partitions.settings(partition);
                List<ScriptCall> call = List.of(new EnqueueScript.Call(partition, now, queue.dedupBuckets(),
                        queue.dedupWindow().toMillis(), own).script(keys));
                Uni<List<Response>> reply = durability.replicas() == 0 ? redis.scriptsAsync(call)
                        : redis.scriptsReplicatedAsync(call, durability.replicas(), durability.replicaTimeout());
                return UniHelper.toFuture(reply).map(replies -> EnqueueScript.Reply.read(replies.get(0), own.size()).answers());
            } catch (RuntimeException e) {
                // sent from a task of the loop, where nobody would see it: the callers are told
                return Future.failedFuture(e);
            }
        }
    }
}
