package io.dedupq.bench.app;

import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisKeys;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The ids the no-op handler ran, one entry per execution, in {@code {<prefix>:<partition>}:bench-runs}
 * ({@code {<prefix>:<queue>}:bench-runs} for the benchmark's queue of one partition): the list the
 * benchmark counts to prove one execution per task id. Ids go out in groups, one RPUSH in flight
 * per partition, each sent {@value #GATHER_MILLIS} ms after its first id came, so that no task's
 * path carries a command of the evidence's own, not even at concurrency 1 (docs/benchmarks.md,
 * "The bench's own evidence woke Redis"). The benchmark waits until the list has caught up.
 */
@ApplicationScoped
public class RunRecords {

    private static final Logger LOG = Logger.getLogger(RunRecords.class);
    private static final int MAX_GROUP = 1000;
    private static final long GATHER_MILLIS = 10;

    private final Vertx vertx;
    private final Redis redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;
    private final Map<Partition, Lane> lanes = new ConcurrentHashMap<>();

    public RunRecords(Vertx vertx, Redis redis, RedisKeys keys, QueuePartitions partitions) {
        this.vertx = vertx;
        this.redis = redis;
        this.keys = keys;
        this.partitions = partitions;
    }

    public void add(String queue, String id) {
        lanes.computeIfAbsent(partitions.forTask(queue, id), p -> new Lane(keys.base(p) + "bench-runs")).add(id);
    }

    /** The ids of one partition waiting to be recorded, and whether a group of them is on its way. */
    private final class Lane {
        private final String key;
        private final Queue<String> waiting = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean sending = new AtomicBoolean();

        Lane(String key) {
            this.key = key;
        }

        void add(String id) {
            waiting.add(id);
            gather();
        }

        /** Sends what waits in {@link #GATHER_MILLIS}, unless a group is gathering or on its way already. */
        private void gather() {
            if (!waiting.isEmpty() && sending.compareAndSet(false, true)) {
                vertx.setTimer(GATHER_MILLIS, timer -> send());
            }
        }

        /** Sends up to {@link #MAX_GROUP} of what waits: at least one, which gather() saw and only this takes. */
        private void send() {
            Request push = Request.cmd(Command.RPUSH).arg(key);
            int n = 0;
            for (String id; n < MAX_GROUP && (id = waiting.poll()) != null; n++) {
                push.arg(id);
            }
            int group = n;
            redis.send(push).onComplete(reply -> {
                if (reply.failed()) {
                    LOG.warnf("%d runs not recorded: %s", group, reply.cause().getMessage());
                }
                sending.set(false);
                gather();
            });
        }
    }
}
