package io.dedupq.bench.app;

import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisKeys;
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
 * per partition, so the evidence is not a Redis round trip of its own per task; the
 * benchmark waits until the list has caught up.
 */
@ApplicationScoped
public class RunRecords {

    private static final Logger LOG = Logger.getLogger(RunRecords.class);
    private static final int MAX_GROUP = 1000;

    private final Redis redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;
    private final Map<Partition, Lane> lanes = new ConcurrentHashMap<>();

    public RunRecords(Redis redis, RedisKeys keys, QueuePartitions partitions) {
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
            if (sending.compareAndSet(false, true)) {
                send();
            }
        }

        /** Sends what waits, then again when the reply is in; only the holder of {@code sending} calls it. */
        private void send() {
            Request push = Request.cmd(Command.RPUSH).arg(key);
            int n = 0;
            for (String id; n < MAX_GROUP && (id = waiting.poll()) != null; n++) {
                push.arg(id);
            }
            if (n == 0) {
                sending.set(false);
                // an id added after the poll found nothing, before the flag was cleared
                if (!waiting.isEmpty() && sending.compareAndSet(false, true)) {
                    send();
                }
                return;
            }
            int group = n;
            redis.send(push).onComplete(reply -> {
                if (reply.failed()) {
                    LOG.warnf("%d runs not recorded: %s", group, reply.cause().getMessage());
                }
                send();
            });
        }
    }
}
