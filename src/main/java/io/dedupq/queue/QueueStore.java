package io.dedupq.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqConfig;
import io.dedupq.config.DedupqJson;
import io.dedupq.handler.HandlerRegistry;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.faulttolerance.api.ApplyGuard;
import io.smallrye.faulttolerance.api.Guard;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.util.TypeLiteral;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Redis reads and writes of the producer side. The HTTP path must answer fast when Redis is
 * down or paused, so each public call runs under {@link RedisGuard}.
 */
@ApplicationScoped
public class QueueStore {

    private static final List<String> TASK_FIELDS = List.of("type", "status", "attempts", "enqueuedAt",
            "startedAt", "finishedAt", "nextAttemptAt", "lastError", "result", "progress", "progressNote", "progressAt",
            "priority");
    /** The counters of a queue's stats hash (the scripts increment them). */
    private static final List<String> STAT_FIELDS = List.of("enqueued", "succeeded", "failed", "dead", "retried",
            "skipped_done", "skipped_locked", "skipped_stale", "rejected_duplicates", "lost_locks", "unparseable",
            "cancelled", "revived", "discarded", "rate_limited", "group_waiting",
            "group_rate_limited");

    private static final TypeLiteral<Uni<List<EnqueueResult>>> ENQUEUE_RESULTS = new TypeLiteral<>() {
    };

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final HandlerRegistry registry;
    private final QueuePartitions partitions;
    private final ObjectMapper mapper;
    private final DedupqConfig config;
    private final EnqueueCoalescer coalescer;
    private final Guard guard;

    public QueueStore(RedisCalls redis, RedisKeys keys, HandlerRegistry registry, QueuePartitions partitions,
            @DedupqJson ObjectMapper mapper, DedupqConfig config, EnqueueCoalescer coalescer,
            @Identifier(RedisGuard.NAME) Guard guard) {
        this.config = config;
        this.coalescer = coalescer;
        this.guard = guard;
        this.redis = redis;
        this.keys = keys;
        this.registry = registry;
        this.partitions = partitions;
        this.mapper = mapper;
    }

    /** Refuses to start with a replica wait that the guard's timeout would cut off, or that WAIT reads as "for ever". */
    void onStart(@Observes StartupEvent event) {
        DedupqConfig.Durability durability = config.durability();
        if (durability.replicas() < 0) {
            throw new IllegalStateException("dedupq.durability.replicas must be 0 or more");
        }
        if (durability.replicas() > 0 && (durability.replicaTimeout().toMillis() < 1
                || durability.replicaTimeout().compareTo(config.redisGuard().timeout()) >= 0)) {
            throw new IllegalStateException("dedupq.durability.replica-timeout (" + durability.replicaTimeout()
                    + ") must be at least 1ms and shorter than dedupq.redis-guard.timeout (" + config.redisGuard().timeout()
                    + "), which cuts off the whole enqueue");
        }
    }

    /**
     * One enqueue.lua call per queue partition, pipelined, shared with the other enqueues of the
     * same event loop turn ({@link EnqueueCoalescer}); with {@code dedupq.durability.replicas}
     * set, each pipeline ends with WAIT, and fewer replicas than asked fail the call
     * ({@link NotReplicatedException}). Non-blocking: the guard's timeout and breaker act on the
     * returned {@link Uni}, so no thread waits on Redis. The guard is called here, not through
     * {@code @ApplyGuard}: its interceptor looks the guard up through CDI at every call, 5 % of a
     * single POST's CPU in a profile of the API pod.
     */
    public Uni<List<EnqueueResult>> enqueue(List<TaskQueue.Prepared> tasks) {
        return guard.get(() -> enqueueUnguarded(tasks), ENQUEUE_RESULTS);
    }

    private Uni<List<EnqueueResult>> enqueueUnguarded(List<TaskQueue.Prepared> tasks) {
        // the tasks of each partition, and where each stands in the caller's list
        Map<Partition, List<Integer>> byPartition = new LinkedHashMap<>();
        Map<Partition, List<EnqueueScript.Task>> members = new LinkedHashMap<>();
        for (int i = 0; i < tasks.size(); i++) {
            TaskQueue.Prepared task = tasks.get(i);
            Partition partition = partitions.forTask(task.queue(), task.id());
            byPartition.computeIfAbsent(partition, p -> new ArrayList<>()).add(i);
            members.computeIfAbsent(partition, p -> new ArrayList<>()).add(task.task());
        }
        return coalescer.answers(members).map(answers -> results(tasks, byPartition, answers));
    }

    private static List<EnqueueResult> results(List<TaskQueue.Prepared> tasks, Map<Partition, List<Integer>> byPartition,
            List<List<EnqueueScript.Answer>> answers) {
        EnqueueResult[] results = new EnqueueResult[tasks.size()];
        int call = 0;
        for (List<Integer> members : byPartition.values()) {
            List<EnqueueScript.Answer> own = answers.get(call++);
            for (int k = 0; k < members.size(); k++) {
                TaskQueue.Prepared task = tasks.get(members.get(k));
                EnqueueScript.Answer answer = own.get(k);
                results[members.get(k)] = new EnqueueResult(task.id(), task.queue(), answer.status(),
                        answer.verdict() == EnqueueScript.Verdict.DUPLICATE, answer.verdict() == EnqueueScript.Verdict.CONFLICT);
            }
        }
        return List.of(results);
    }

    /** Looks the id up in every queue (in its partition); ids are unique per queue, the first queue that has it wins. */
    @ApplyGuard(RedisGuard.NAME)
    public Optional<TaskView> find(String id) {
        return lookup(id);
    }

    /**
     * {@link #find} for a caller that runs under {@link RedisGuard} already (guards must not nest).
     * Reads each queue's task hash; when none has one (the result retention has passed, or the id
     * is unknown), each queue's dedup record (recall.lua), which answers with the outcome only.
     */
    Optional<TaskView> lookup(String id) {
        List<String> queues = registry.queues();
        List<KeyedCommand> reads = new ArrayList<>();
        List<ScriptCall> recalls = new ArrayList<>();
        for (String queue : queues) {
            Partition partition = partitions.forTask(queue, id);
            reads.add(HashFields.hmget(keys.task(partition, id), TASK_FIELDS));
            recalls.add(new RecallScript.Call(partition, id).script(keys));
        }
        List<Response> replies = redis.batch(reads);
        for (int q = 0; q < queues.size(); q++) {
            HashFields task = new HashFields(TASK_FIELDS, replies.get(q));
            if (task.raw("status") != null) {
                return Optional.of(view(id, queues.get(q), task));
            }
        }
        List<Response> records = redis.scripts(recalls);
        for (int q = 0; q < queues.size(); q++) {
            Optional<String> outcome = RecallScript.read(records.get(q));
            if (outcome.isPresent()) {
                return Optional.of(TaskView.outcome(id, queues.get(q), outcome.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * Per queue, the counts summed over its partitions, and each partition's own, with the limits
     * it runs under. Two round trips: each partition's workers and Redis's time, then every count
     * of every partition in one pipeline.
     */
    @ApplyGuard(RedisGuard.NAME)
    public List<QueueStats> stats() {
        List<Partition> all = partitions.all();
        Map<Partition, QueueStats> byPartition = new LinkedHashMap<>();
        List<QueueStats> counted = count(all);
        for (int i = 0; i < all.size(); i++) {
            byPartition.put(all.get(i), counted.get(i));
        }
        List<QueueStats> stats = new ArrayList<>();
        for (String queue : registry.queues()) {
            List<QueueStats> parts = partitions.of(queue).stream().map(byPartition::get).toList();
            stats.add(parts.size() == 1 ? parts.get(0) : QueueStats.total(queue, parts));
        }
        return stats;
    }

    private List<QueueStats> count(List<Partition> partitions) {
        List<KeyedCommand> workerLists = new ArrayList<>();
        for (Partition partition : partitions) {
            workerLists.add(KeyedCommand.of(Command.ZRANGE, keys.workers(partition)).arg(0).arg(-1));
        }
        // the rate window ends at Redis's now, as claim.lua measures it
        workerLists.add(KeyedCommand.keyless(Request.cmd(Command.TIME)));
        List<Response> workersPerQueue = redis.batch(workerLists);
        long now = RedisCalls.millis(workersPerQueue.get(partitions.size()));
        List<KeyedCommand> reads = new ArrayList<>();
        for (int q = 0; q < partitions.size(); q++) {
            Partition partition = partitions.get(q);
            Optional<RateLimit> rate = rateLimit(partition);
            for (int level = Priority.HIGHEST; level >= Priority.LOWEST; level--) {
                reads.add(KeyedCommand.of(Command.LLEN, keys.pending(partition, level)));
            }
            // enqueue.lua's wake-up entry, at the default list's taking end while it waits there: not a task
            reads.add(KeyedCommand.of(Command.LINDEX, keys.pending(partition)).arg(-1));
            reads.add(KeyedCommand.of(Command.ZCARD, keys.delayed(partition)));
            reads.add(KeyedCommand.of(Command.LLEN, keys.dead(partition)));
            reads.add(HashFields.hmget(keys.stats(partition), STAT_FIELDS));
            reads.add(KeyedCommand.of(Command.EXISTS, keys.paused(partition)));
            reads.add(KeyedCommand.of(Command.SCARD, keys.parkedGroups(partition)));
            if (rate.isPresent()) {
                // the log's entries older than the window stay until the next claim trims them: not counted
                reads.add(KeyedCommand.of(Command.ZCOUNT, keys.rate(partition))
                        .arg("(" + (now - rate.get().window().toMillis())).arg("+inf"));
            }
            for (Response worker : workersPerQueue.get(q)) {
                reads.add(KeyedCommand.of(Command.LLEN, keys.processing(partition, worker.toString())));
            }
        }
        List<Response> replies = redis.batch(reads);
        List<QueueStats> stats = new ArrayList<>();
        int r = 0;
        for (int q = 0; q < partitions.size(); q++) {
            Map<Integer, Long> waiting = new TreeMap<>(Comparator.reverseOrder());
            for (int level = Priority.HIGHEST; level >= Priority.LOWEST; level--) {
                waiting.put(level, replies.get(r++).toLong());
            }
            Response last = replies.get(r++);
            if (last != null && Priority.WAKE.equals(last.toString())) {
                waiting.merge(Priority.DEFAULT, -1L, Long::sum);
            }
            waiting.values().removeIf(n -> n <= 0);
            long pending = waiting.values().stream().mapToLong(Long::longValue).sum();
            long delayed = replies.get(r++).toLong();
            long dead = replies.get(r++).toLong();
            HashFields c = new HashFields(STAT_FIELDS, replies.get(r++));
            boolean paused = replies.get(r++).toInteger() == 1;
            long waitingGroups = replies.get(r++).toLong();
            long rateWindowStarts = rateLimit(partitions.get(q)).isPresent() ? replies.get(r++).toLong() : 0;
            long processing = 0;
            for (int w = 0; w < workersPerQueue.get(q).size(); w++) {
                processing += replies.get(r++).toLong();
            }
            long skippedDone = c.count("skipped_done");
            long skippedLocked = c.count("skipped_locked");
            long skippedStale = c.count("skipped_stale");
            long failed = c.count("failed") + c.count("dead");
            long unparseable = c.count("unparseable");
            stats.add(new QueueStats(partitions.get(q).name(), pending, processing, delayed, dead,
                    c.count("enqueued"), c.count("succeeded"), failed, failed + unparseable, unparseable, c.count("retried"),
                    skippedDone + skippedLocked + skippedStale, skippedDone, skippedLocked, skippedStale,
                    c.count("rejected_duplicates"), c.count("lost_locks"), c.count("cancelled"), c.count("revived"),
                    c.count("discarded"), paused, c.count("rate_limited"),
                    c.count("group_waiting"), c.count("group_rate_limited"), waiting, waitingGroups, rateWindowStarts,
                    QueueControls.of(this.partitions.settings(partitions.get(q))), List.of()));
        }
        return stats;
    }

    private Optional<RateLimit> rateLimit(Partition partition) {
        return partitions.settings(partition).rateLimit();
    }

    /** The hash holds neither the id nor the queue: its key names them (enqueue.lua). */
    private TaskView view(String id, String queue, HashFields f) {
        return new TaskView(id, queue, f.text("type"), f.text("status"), (int) f.count("attempts"),
                f.number("enqueuedAt"), f.number("startedAt"), f.number("finishedAt"), f.number("nextAttemptAt"),
                f.text("lastError"), json(f.raw("result")), TaskView.Progress.of(f),
                f.raw("priority") == null ? Priority.DEFAULT : (int) f.count("priority"));
    }


    private JsonNode json(Response value) {
        if (value == null) {
            return null;
        }
        try {
            return mapper.readTree(value.toString());
        } catch (JsonProcessingException e) {
            return mapper.getNodeFactory().textNode(value.toString());
        }
    }
}
