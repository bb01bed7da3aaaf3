package io.dedupq.queue;

import io.dedupq.config.DedupqConfig;
import io.smallrye.faulttolerance.api.ApplyGuard;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Cancels a waiting or running task (cancel.lua); the script decides atomically whether it may,
 * and tells the worker of a running one over pub/sub (worker/CancelListener).
 */
@ApplicationScoped
public class TaskCanceller {

    /** {@code cancelled} false: {@code status} says why (already terminal). */
    public record Cancelled(String id, String queue, boolean cancelled, String status) {
    }

    private final QueueStore store;
    private final RedisCalls redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;
    private final DedupqConfig config;

    public TaskCanceller(QueueStore store, RedisCalls redis, RedisKeys keys, QueuePartitions partitions,
            DedupqConfig config) {
        this.store = store;
        this.redis = redis;
        this.keys = keys;
        this.partitions = partitions;
        this.config = config;
    }

    /** Empty when no queue knows the id. */
    @ApplyGuard(RedisGuard.NAME)
    public Optional<Cancelled> cancel(String id) {
        Optional<TaskView> task = store.lookup(id);
        if (task.isEmpty()) {
            return Optional.empty();
        }
        String queue = task.get().queue();
        Partition partition = partitions.forTask(queue, id);
        DedupqConfig.QueueConfig settings = config.queues().get(queue);
        CancelScript.Call call = new CancelScript.Call(partition, id, settings.dedupWindow().toMillis(),
                DedupqConfig.QueueConfig.retention(settings).toMillis(), settings.dedupBuckets());
        StatusReply<CancelScript.Answer> reply = CancelScript.read(redis.script(call.script(keys)));
        if (reply.answer() != CancelScript.Answer.NO_TASK) {
            return Optional.of(new Cancelled(id, queue, reply.answer() == CancelScript.Answer.CANCELLED, reply.status()));
        }
        // no hash: the lookup found only the outcome (the result retention passed), or the hash expired since
        return task.get().outcomeOnly() ? Optional.of(new Cancelled(id, queue, false, task.get().status())) : Optional.empty();
    }
}
