package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.KeyedCommand;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisGuard;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.RunningTasks;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.faulttolerance.api.ApplyGuard;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The workers as their heartbeats in {@code dedupq:workers} show them, with what each runs right
 * now (for operators and the dashboard).
 */
@ApplicationScoped
public class WorkerDirectory {

    /**
     * {@code alive}: the last beat is younger than dedupq.worker.heartbeat-expiry; {@code running}:
     * its tasks that run right now, longest-running first (a dead worker's stay listed until the
     * reaper requeues them).
     */
    @RegisterForReflection
    public record WorkerView(String id, long lastBeat, long ageMs, boolean alive, List<RunningTasks.RunningTask> running) {
    }

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final DedupqConfig config;
    private final RunningTasks runningTasks;

    public WorkerDirectory(RedisCalls redis, RedisKeys keys, DedupqConfig config, RunningTasks runningTasks) {
        this.redis = redis;
        this.keys = keys;
        this.config = config;
        this.runningTasks = runningTasks;
    }

    /**
     * Every listed worker, freshest beat first; reaped ones stay listed (not alive) for a while. Ages are on
     * Redis's clock, which wrote the beats (beat.lua), so they read the same from every pod.
     */
    @ApplyGuard(RedisGuard.NAME)
    public List<WorkerView> workers() {
        Response reply = redis.send(KeyedCommand.of(Command.ZRANGE, keys.workers()).arg(0).arg(-1).arg("WITHSCORES"));
        long now = redis.serverMillis();
        long expiry = config.worker().heartbeatExpiry().toMillis();
        Map<String, Long> beats = new LinkedHashMap<>();
        // RESP3 answers [[member, score], ...], RESP2 a flat [member, score, ...]
        boolean pairs = reply.size() > 0 && reply.get(0).size() == 2;
        int step = pairs ? 1 : 2;
        for (int i = 0; i < reply.size(); i += step) {
            String id = pairs ? reply.get(i).get(0).toString() : reply.get(i).toString();
            beats.put(id, (long) Double.parseDouble(pairs ? reply.get(i).get(1).toString() : reply.get(i + 1).toString()));
        }
        Map<String, List<RunningTasks.RunningTask>> running = beats.isEmpty() ? Map.of() : runningTasks.of(beats.keySet(), now);
        List<WorkerView> workers = new ArrayList<>(beats.size());
        beats.forEach((id, beat) -> {
            long age = Math.max(0, now - beat);
            workers.add(new WorkerView(id, beat, age, age < expiry, running.getOrDefault(id, List.of())));
        });
        workers.sort(Comparator.comparingLong(WorkerView::ageMs));
        return workers;
    }
}
