package io.dedupq.queue;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What each worker runs right now, read from its processing lists and the tasks' hashes: a copy
 * in {@code {p:Q}:processing:<worker>} is that worker's run while the task's hash says
 * {@code running} with a lock token of that worker ({@code <worker>:<fence>}, claim.lua). A copy
 * whose task moved on (a newer execution elsewhere owns it, its outcome is being recorded) is
 * not listed. Three pipelined reads, whatever the number of workers and partitions.
 */
@ApplicationScoped
public class RunningTasks {

    /** Copies read per processing list: a worker holds about its queue's concurrency in one. */
    public static final int MAX_PER_LIST = 100;

    /**
     * One task a worker runs.
     *
     * @param attempt   0 for the first execution, as {@code ExecutionContext.attempt()}
     * @param since     when the execution started (epoch ms, Redis's clock)
     * @param elapsedMs how long it has been running, on the same clock
     */
    @RegisterForReflection
    public record RunningTask(String id, String queue, int attempt, long since, long elapsedMs) {
    }

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;
    private final TaskCopies copies;

    public RunningTasks(RedisCalls redis, RedisKeys keys, QueuePartitions partitions, TaskCopies copies) {
        this.redis = redis;
        this.keys = keys;
        this.partitions = partitions;
        this.copies = copies;
    }

    /**
     * The running tasks of each of {@code workers} (longest-running first); a worker that runs
     * nothing has no entry. {@code now} is Redis's time (ms). The caller guards the calls.
     */
    public Map<String, List<RunningTask>> of(Set<String> workers, long now) {
        Map<String, List<RunningTask>> running = new HashMap<>();
        for (TaskCopies.Read task : read(partitions.all(), workers::contains)) {
            running.computeIfAbsent(task.copy().worker(), w -> new ArrayList<>()).add(new RunningTask(task.id(),
                    task.copy().partition().queue(), task.attempt(), task.startedAt(), Math.max(0, now - task.startedAt())));
        }
        running.values().forEach(list -> list.sort(Comparator.comparingLong(RunningTask::since)));
        return running;
    }

    /**
     * The running tasks of {@code queue} on any worker that consumes it (a dead one's until the
     * reaper requeues them), longest-running first. The caller guards the calls.
     */
    public List<ListedTask> inQueue(String queue, long now) {
        return read(partitions.of(queue), worker -> true).stream()
                .sorted(Comparator.comparingLong(TaskCopies.Read::startedAt))
                .map(task -> task.listed("running", task.startedAt(), now)).toList();
    }

    /** The copies in the processing lists of {@code listed} workers of these partitions that run now. */
    private List<TaskCopies.Read> read(List<Partition> from, Predicate<String> listed) {
        List<KeyedCommand> members = new ArrayList<>(from.size());
        for (Partition partition : from) {
            members.add(KeyedCommand.of(Command.ZRANGE, keys.workers(partition)).arg(0).arg(-1));
        }
        List<Partition> owned = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        List<KeyedCommand> lists = new ArrayList<>();
        List<Response> consumers = redis.batch(members);
        for (int p = 0; p < from.size(); p++) {
            for (Response member : consumers.get(p)) {
                String worker = member.toString();
                if (listed.test(worker)) {
                    owned.add(from.get(p));
                    owners.add(worker);
                    lists.add(KeyedCommand.of(Command.LRANGE, keys.processing(from.get(p), worker)).arg(0).arg(MAX_PER_LIST - 1));
                }
            }
        }
        if (lists.isEmpty()) {
            return List.of();
        }
        List<TaskCopies.Copy> found = new ArrayList<>();
        List<Response> envelopes = redis.batch(lists);
        for (int l = 0; l < lists.size(); l++) {
            for (Response envelope : envelopes.get(l)) {
                found.add(new TaskCopies.Copy(owned.get(l), owners.get(l), envelope.toString()));
            }
        }
        return copies.read(found).stream().filter(task -> task.runsOn(task.copy().worker())).toList();
    }
}
