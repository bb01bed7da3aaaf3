package io.dedupq.fault;

import com.fasterxml.jackson.databind.JsonNode;
import io.dedupq.support.AppJvm;
import java.util.ArrayList;
import java.util.List;

/**
 * Every {@code every} ms, one row of the soak's time series: tasks finished so far, pending,
 * Redis memory, and the RSS and used heap of the api pods and of the worker pods alive at that
 * moment. Rows are read where the figures come from (GET /api/queues, INFO memory, /proc, each
 * pod's /q/metrics), never estimated.
 */
final class SoakSampler implements AutoCloseable {

    /** One sample; {@code seconds} since the soak started; RSS and heap in MiB, the largest pod of each kind. */
    record Row(double seconds, long succeeded, long pending, double redisMib, double apiRssMib, double workerRssMib,
            double apiHeapMib, double workerHeapMib, long kills, long redisRestarts) {

        String csv() {
            return String.format(java.util.Locale.ROOT, "%.1f,%d,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%d,%d", seconds, succeeded,
                    pending, redisMib, apiRssMib, workerRssMib, apiHeapMib, workerHeapMib, kills, redisRestarts);
        }
    }

    static final String CSV_HEADER = "seconds,succeeded,pending,redis_mib,api_rss_mib,worker_rss_mib,api_heap_mib,"
            + "worker_heap_mib,kills,redis_restarts";

    private final HttpApi api;
    private final RedisProbe redis;
    private final WorkerFleet fleet;
    private final List<AppJvm> apiPods;
    private final Figures figures;
    private final long every;
    private final long started = System.nanoTime();
    private final List<Row> rows = new ArrayList<>();
    private final Thread thread = new Thread(this::run, "soak-sampler");
    private volatile boolean running = true;

    SoakSampler(HttpApi api, RedisProbe redis, WorkerFleet fleet, List<AppJvm> apiPods, Figures figures, long every) {
        this.api = api;
        this.redis = redis;
        this.fleet = fleet;
        this.apiPods = apiPods;
        this.figures = figures;
        this.every = every;
    }

    SoakSampler start() {
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void run() {
        while (running) {
            try {
                sample();
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException missed) {
                // Redis restarting: this sample is skipped, the next one is taken as usual
            }
        }
    }

    void sample() {
        long succeeded = 0;
        long pending = 0;
        for (JsonNode queue : api.read("/api/queues")) {
            succeeded += queue.path("succeeded").asLong();
            pending += queue.path("pending").asLong();
        }
        List<AppJvm> api = apiPods.stream().filter(AppJvm::alive).toList();
        List<AppJvm> workers = fleet.available();
        Row row = new Row((System.nanoTime() - started) / 1e9, succeeded, pending, redis.usedMemory() / 1048576.0,
                largest(api, AppJvm::rssKib) / 1024.0, largest(workers, AppJvm::rssKib) / 1024.0,
                largest(api, SoakSampler::heapBytes) / 1048576.0, largest(workers, SoakSampler::heapBytes) / 1048576.0,
                figures.get("kill -9 of a worker"),
                figures.get("Redis crashes (kill -9) and restarts on the same AOF"));
        synchronized (rows) {
            rows.add(row);
        }
    }

    private static double largest(List<AppJvm> pods, java.util.function.ToLongFunction<AppJvm> figure) {
        return pods.stream().mapToLong(figure).max().orElse(0);
    }

    /** Used heap from the pod's own /q/metrics (Micrometer's jvm_memory_used_bytes, area heap); 0 if it did not answer. */
    private static long heapBytes(AppJvm pod) {
        try {
            return (long) pod.send("GET", "/q/metrics", null).body().lines()
                    .filter(l -> l.startsWith("jvm_memory_used_bytes{area=\"heap\""))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        } catch (RuntimeException killedMeanwhile) {
            return 0;
        }
    }

    List<Row> rows() {
        synchronized (rows) {
            return List.copyOf(rows);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(30_000);
    }
}
