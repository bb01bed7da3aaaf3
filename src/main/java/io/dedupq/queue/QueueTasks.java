package io.dedupq.queue;

import io.dedupq.worker.RunningTasks;
import io.smallrye.faulttolerance.api.ApplyGuard;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A queue's tasks in one state, page by page, for operators: waiting (its pending lists, what
 * runs next first), delayed (waiting for a retry, soonest due first) or running (its workers'
 * processing lists, longest-running first). A partitioned queue's lists are read one after the
 * other, as if joined in partition order. Four pipelined reads per page (Redis's time, the
 * lengths, the page, the tasks' hashes); running, those of {@link RunningTasks}.
 */
@ApplicationScoped
public class QueueTasks {

    /** The states a task can be listed in. */
    public enum State {
        WAITING, DELAYED, RUNNING;

        /** Its name in the API. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Optional<State> of(String id) {
            for (State state : values()) {
                if (state.id().equals(id)) {
                    return Optional.of(state);
                }
            }
            return Optional.empty();
        }
    }

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;
    private final TaskCopies copies;
    private final RunningTasks running;

    public QueueTasks(RedisCalls redis, RedisKeys keys, QueuePartitions partitions, TaskCopies copies,
            RunningTasks running) {
        this.redis = redis;
        this.keys = keys;
        this.partitions = partitions;
        this.copies = copies;
        this.running = running;
    }

    /** {@code limit} tasks of {@code queue} in {@code state} from index {@code offset}, and how many there are. */
    @ApplyGuard(RedisGuard.NAME)
    public TaskPage page(String queue, State state, int offset, int limit) {
        long now = redis.serverMillis();
        if (state == State.RUNNING) {
            List<ListedTask> all = running.inQueue(queue, now);
            List<ListedTask> page = all.subList(Math.min(offset, all.size()), (int) Math.min((long) offset + limit, all.size()));
            return new TaskPage(queue, state.id(), all.size(), offset, limit, page);
        }
        boolean waiting = state == State.WAITING;
        List<Partition> lists = partitions.of(queue);
        List<KeyedCommand> lengths = new ArrayList<>(lists.size());
        for (Partition partition : lists) {
            lengths.add(waiting ? KeyedCommand.of(Command.LLEN, keys.pending(partition))
                    : KeyedCommand.of(Command.ZCARD, keys.delayed(partition)));
        }
        List<Long> sizes = redis.batch(lengths).stream().map(Response::toLong).toList();
        List<PageSlices.Slice> slices = PageSlices.of(sizes, offset, limit);
        List<KeyedCommand> reads = new ArrayList<>(slices.size());
        for (PageSlices.Slice slice : slices) {
            Partition partition = lists.get(slice.list());
            // workers take from pending's right end: counted from there, the page is what runs next
            reads.add(waiting ? KeyedCommand.of(Command.LRANGE, keys.pending(partition)).arg(-slice.end() - 1).arg(-slice.start() - 1)
                    : KeyedCommand.of(Command.ZRANGE, keys.delayed(partition)).arg(slice.start()).arg(slice.end()));
        }
        List<TaskCopies.Copy> found = new ArrayList<>();
        List<Response> replies = redis.batch(reads);
        for (int s = 0; s < slices.size(); s++) {
            List<TaskCopies.Copy> slice = new ArrayList<>();
            for (Response envelope : replies.get(s)) {
                slice.add(new TaskCopies.Copy(lists.get(slices.get(s).list()), null, envelope.toString()));
            }
            if (waiting) {
                Collections.reverse(slice);
            }
            found.addAll(slice);
        }
        List<ListedTask> tasks = copies.read(found).stream().map(task -> task.listed(state.id(), task.enqueuedAt(), now)).toList();
        return new TaskPage(queue, state.id(), sizes.stream().mapToLong(Long::longValue).sum(), offset, limit, tasks);
    }
}
