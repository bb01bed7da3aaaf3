package io.dedupq.queue;

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
        // waiting: each partition's level lists, highest level first (the order strict priority runs them in)
        List<Partition> owners = new ArrayList<>();
        List<String> lists = new ArrayList<>();
        for (Partition partition : partitions.of(queue)) {
            for (int level = Priority.HIGHEST; level >= (waiting ? Priority.LOWEST : Priority.HIGHEST); level--) {
                owners.add(partition);
                lists.add(waiting ? keys.pending(partition, level) : keys.delayed(partition));
            }
        }
        List<KeyedCommand> lengths = new ArrayList<>(lists.size() * 2);
        for (String list : lists) {
            lengths.add(KeyedCommand.of(waiting ? Command.LLEN : Command.ZCARD, list));
            if (waiting) {
                // enqueue.lua's wake-up entry waits at a list's taking end: not a task, not counted, not listed
                lengths.add(KeyedCommand.of(Command.LINDEX, list).arg(-1));
            }
        }
        List<Response> replies = redis.batch(lengths);
        int step = waiting ? 2 : 1;
        List<Long> sizes = new ArrayList<>(lists.size());
        List<Integer> wakes = new ArrayList<>(lists.size());
        for (int l = 0; l < lists.size(); l++) {
            Response last = waiting ? replies.get(step * l + 1) : null;
            int wake = last != null && Priority.WAKE.equals(last.toString()) ? 1 : 0;
            wakes.add(wake);
            sizes.add(replies.get(step * l).toLong() - wake);
        }
        List<PageSlices.Slice> slices = PageSlices.of(sizes, offset, limit);
        List<KeyedCommand> reads = new ArrayList<>(slices.size());
        for (PageSlices.Slice slice : slices) {
            String list = lists.get(slice.list());
            int skip = wakes.get(slice.list());
            // workers take from pending's right end: counted from there, the page is what runs next
            reads.add(waiting ? KeyedCommand.of(Command.LRANGE, list).arg(-slice.end() - 1 - skip).arg(-slice.start() - 1 - skip)
                    : KeyedCommand.of(Command.ZRANGE, list).arg(slice.start()).arg(slice.end()));
        }
        List<TaskCopies.Copy> found = new ArrayList<>();
        List<Response> pages = redis.batch(reads);
        for (int s = 0; s < slices.size(); s++) {
            List<TaskCopies.Copy> slice = new ArrayList<>();
            for (Response envelope : pages.get(s)) {
                slice.add(new TaskCopies.Copy(owners.get(slices.get(s).list()), null, envelope.toString()));
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
