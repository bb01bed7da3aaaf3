package io.dedupq.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqJson;
import io.dedupq.queue.HashFields;
import io.dedupq.queue.KeyedCommand;
import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
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

    private static final List<String> FIELDS = List.of("status", "attempt", "token", "startedAt");

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

    private record Copy(Partition partition, String worker, String id) {
    }

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;
    private final ObjectMapper mapper;

    public RunningTasks(RedisCalls redis, RedisKeys keys, QueuePartitions partitions, @DedupqJson ObjectMapper mapper) {
        this.redis = redis;
        this.keys = keys;
        this.partitions = partitions;
        this.mapper = mapper;
    }

    /**
     * The running tasks of each of {@code workers} (longest-running first); a worker that runs
     * nothing has no entry. {@code now} is Redis's time (ms). The caller guards the calls.
     */
    public Map<String, List<RunningTask>> of(Set<String> workers, long now) {
        List<Partition> all = partitions.all();
        List<KeyedCommand> members = new ArrayList<>(all.size());
        for (Partition partition : all) {
            members.add(KeyedCommand.of(Command.ZRANGE, keys.workers(partition)).arg(0).arg(-1));
        }
        List<Partition> listed = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        List<KeyedCommand> lists = new ArrayList<>();
        List<Response> consumers = redis.batch(members);
        for (int p = 0; p < all.size(); p++) {
            for (Response member : consumers.get(p)) {
                String worker = member.toString();
                if (workers.contains(worker)) {
                    listed.add(all.get(p));
                    owners.add(worker);
                    lists.add(KeyedCommand.of(Command.LRANGE, keys.processing(all.get(p), worker)).arg(0).arg(MAX_PER_LIST - 1));
                }
            }
        }
        if (lists.isEmpty()) {
            return Map.of();
        }
        List<Copy> copies = new ArrayList<>();
        List<KeyedCommand> hashes = new ArrayList<>();
        List<Response> envelopes = redis.batch(lists);
        for (int l = 0; l < lists.size(); l++) {
            for (Response envelope : envelopes.get(l)) {
                String id = idOf(envelope.toString());
                if (id != null) {
                    copies.add(new Copy(listed.get(l), owners.get(l), id));
                    hashes.add(HashFields.hmget(keys.task(listed.get(l), id), FIELDS));
                }
            }
        }
        if (hashes.isEmpty()) {
            return Map.of();
        }
        Map<String, List<RunningTask>> running = new HashMap<>();
        List<Response> tasks = redis.batch(hashes);
        for (int c = 0; c < copies.size(); c++) {
            Copy copy = copies.get(c);
            HashFields task = new HashFields(FIELDS, tasks.get(c));
            String token = task.text("token");
            Long since = task.number("startedAt");
            if ("running".equals(task.text("status")) && token != null && token.startsWith(copy.worker() + ":") && since != null) {
                running.computeIfAbsent(copy.worker(), w -> new ArrayList<>()).add(new RunningTask(copy.id(),
                        copy.partition().queue(), (int) task.count("attempt"), since, Math.max(0, now - since)));
            }
        }
        running.values().forEach(list -> list.sort(Comparator.comparingLong(RunningTask::since)));
        return running;
    }

    /** The id of a copy, null for one that does not read (claim.lua dead-letters those). */
    private String idOf(String envelope) {
        try {
            JsonNode id = mapper.readTree(envelope).get("id");
            return id != null && id.isTextual() ? id.textValue() : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
