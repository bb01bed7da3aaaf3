package io.dedupq.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.redis.client.Command;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the BullMQ peer benchmark (bench.mjs, where bench/run.sh installed it) for one cell
 * against the same Redis and turns its JSON line into {@link CellResult}s.
 */
public final class Bullmq {

    private final Path dir;
    private final BenchSettings settings;

    /** {@code dir}: a copy of the peer's folder with node_modules installed. */
    public Bullmq(Path dir, BenchSettings settings) {
        this.dir = dir;
        this.settings = settings;
    }

    /** Whether the peer is installed and node runs; null when usable, else why not. */
    public static String unavailable(Path dir) {
        if (dir == null || !Files.isRegularFile(dir.resolve("bench.mjs"))) {
            return "BullMQ peer benchmark not found (BULLMQ_DIR)";
        }
        if (!Files.isDirectory(dir.resolve("node_modules").resolve("bullmq"))) {
            return "BullMQ not installed in " + dir + " (npm ci failed or was skipped)";
        }
        return null;
    }

    /** {@code variant}: plain, dedup-option or dedup-jobid. */
    public List<CellResult> run(String variant, int concurrency, boolean overlap, String tag) {
        String mode = variant.equals("plain") ? "plain" : "dedup";
        String key = variant.startsWith("dedup-") ? variant.substring(6) : "both";
        Path log = settings.out().resolve("logs").resolve(tag + ".log");
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder("node", "bench.mjs").directory(dir.toFile())
                    .redirectError(log.toFile());
            builder.environment().putAll(Map.of("REDIS_URL", settings.redisUrl(), "MODE", mode, "DEDUP_KEY", key,
                    "CONCURRENCY", Integer.toString(concurrency), "JOBS", Integer.toString(settings.jobs()),
                    "DUP_RATIO", Double.toString(settings.dupRatio()), "SEED", Integer.toString(settings.seed()),
                    "OVERLAP", overlap ? "1" : "0", "LAT_PROBES", Integer.toString(settings.probes()),
                    "WARMUP", Integer.toString(settings.warmup())));
            Process node = builder.start();
            String out = new String(node.getInputStream().readAllBytes());
            if (node.waitFor() != 0) {
                throw new IllegalStateException("bench.mjs failed (exit " + node.exitValue() + "); see " + log);
            }
            Files.writeString(settings.out().resolve("bullmq.jsonl"), out, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            return parse(new ObjectMapper().readTree(out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
                    .orElseThrow(() -> new IllegalStateException("bench.mjs printed no result; see " + log))));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run bench.mjs: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** BullMQ's enqueue rate with {@code batch} jobs per call (1: Queue.add, more: addBulk). */
    public record AddRate(int batch, int inFlight, double seconds, double jobsPerSecond, double nodeCpuPct) {
    }

    /**
     * bench/peer/add.mjs (copied next to the peer's node_modules by bench/run.sh): {@code
     * inFlight} add or addBulk calls outstanding for {@code seconds}, fresh ids with the
     * deduplication option, against the same Redis.
     */
    public AddRate add(int batch, int inFlight, int seconds) {
        Path log = settings.out().resolve("logs").resolve("bullmq-add-" + batch + ".log");
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder("node", "add.mjs").directory(dir.toFile())
                    .redirectError(log.toFile());
            builder.environment().putAll(Map.of("REDIS_URL", settings.redisUrl(), "BATCH", Integer.toString(batch),
                    "IN_FLIGHT", Integer.toString(inFlight), "SECONDS", Integer.toString(seconds)));
            Process node = builder.start();
            String out = new String(node.getInputStream().readAllBytes());
            if (node.waitFor() != 0) {
                throw new IllegalStateException("add.mjs failed (exit " + node.exitValue() + "); see " + log);
            }
            JsonNode line = new ObjectMapper().readTree(out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
                    .orElseThrow(() -> new IllegalStateException("add.mjs printed no result; see " + log)));
            return new AddRate(batch, inFlight, num(line, "seconds"), num(line, "jobs_per_s"), num(line, "node_cpu_pct"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run add.mjs: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** BullMQ's Redis memory per completed job, the keys its jobs added, and its queue's capped event stream. */
    public record Memory(int jobs, double bytesPerJob, long keys, long eventStreamBytes) {
    }

    /**
     * bench/peer/memory.mjs: {@code jobs} jobs with the deduplication option, processed and kept
     * as completed; {@link BenchRedis#usedMemory} after its warm-up job and after it exited.
     */
    public Memory memory(BenchRedis redis, int jobs) {
        Path log = settings.out().resolve("logs").resolve("bullmq-memory.log");
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder("node", "memory.mjs").directory(dir.toFile())
                    .redirectError(log.toFile());
            builder.environment().putAll(Map.of("REDIS_URL", settings.redisUrl(), "JOBS", Integer.toString(jobs)));
            Process node = builder.start();
            BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream()));
            String warm = out.readLine();
            if (warm == null || !warm.contains("\"warm\"")) {
                throw new IllegalStateException("memory.mjs did not warm up; see " + log);
            }
            long keysBefore = redis.send(Command.DBSIZE).toLong();
            long base = redis.usedMemory();
            node.getOutputStream().write('\n');
            node.getOutputStream().close();
            JsonNode done = new ObjectMapper().readTree(out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
                    .orElseThrow(() -> new IllegalStateException("memory.mjs printed no result; see " + log)));
            if (node.waitFor() != 0 || done.path("completed").asInt() != jobs) {
                throw new IllegalStateException("memory.mjs failed (exit " + node.exitValue() + ", " + done + "); see " + log);
            }
            long keys = redis.send(Command.DBSIZE).toLong() - keysBefore;
            double perJob = (redis.usedMemory() - base) / (double) jobs;
            long events = redis.send(Command.MEMORY, "USAGE", "bull:peermem:events").toLong();
            return new Memory(jobs, perJob, keys, events);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run memory.mjs: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<CellResult> parse(JsonNode line) {
        List<CellResult> cells = new ArrayList<>();
        for (JsonNode r : line.path("results")) {
            JsonNode cpu = r.path("cpu_process");
            cells.add(new CellResult("bullmq", r.path("variant").asText(), line.path("concurrency").asInt(), 1,
                    line.path("overlap").asBoolean(), line.path("jobs").asInt(), line.path("unique_ids").asInt(),
                    num(r, "enqueue_rate"), num(r, "processing_rate"), num(r, "lat_p50_ms"), num(r, "lat_p99_ms"),
                    num(r, "idle_pickup_p50_ms"), num(r, "idle_pickup_p99_ms"),
                    line.path("jobs").asLong() - r.path("jobs_created").asLong(), 0, r.path("processor_calls").asLong(),
                    r.path("ids_run_more_than_once").asLong(), r.path("ids_missing").asLong(), -1, -1, -1,
                    num(cpu, "node_cpu_pct"), num(cpu, "redis_cpu_pct"), num(cpu, "foreign_cpu_pct"), Map.of(),
                    r.path("timed_out").asBoolean()));
        }
        return cells;
    }

    private static double num(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isNumber() ? value.asDouble() : Double.NaN;
    }
}
