package io.dedupq.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.RedisProcess;
import io.dedupq.support.AppJvm;
import io.vertx.redis.client.Command;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole benchmark in one process (bench/run.sh calls it): a private non-persistent
 * redis-server, dedupq as separate JVMs of the packaged jar, the BullMQ peer against the same
 * server, wrk, redis-benchmark; writes raw JSON lines and a markdown report, and puts the report
 * into docs/benchmarks.md between its markers. Settings come from environment variables.
 */
public final class Benchmark {

    private static final String BEGIN = "<!-- bench:begin (written by bench/run.sh) -->";
    private static final String END = "<!-- bench:end -->";

    private final BenchSettings settings;
    private final Map<String, String> env;
    private final List<CellResult> results = new ArrayList<>();
    private final ObjectMapper json = new ObjectMapper();

    private Benchmark(BenchSettings settings, Map<String, String> env) {
        this.settings = settings;
        this.env = env;
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> env = System.getenv();
        Path out = Path.of(env.getOrDefault("OUT_DIR", "target/bench/run-" + Instant.now().toString()
                .replaceAll("[-:]", "").replaceAll("\\..*", "") + "Z"));
        Files.createDirectories(out);
        BenchSettings base = new BenchSettings(env.containsKey("JAR") ? Path.of(env.get("JAR")) : BenchSettings.BENCH_APP,
                null, Integer.parseInt(env.getOrDefault("JOBS", "50000")),
                Double.parseDouble(env.getOrDefault("DUP_RATIO", "0.2")), Integer.parseInt(env.getOrDefault("SEED", "42")),
                1000, Integer.parseInt(env.getOrDefault("LAT_PROBES", "200")),
                Integer.parseInt(env.getOrDefault("WARMUP", "200000")), Integer.parseInt(env.getOrDefault("TIMEOUT_S", "300")),
                BenchSettings.props(env.get("BENCH_APP_PROPS")),
                Arrays.stream(env.getOrDefault("BENCH_JVM_OPTS", "").trim().split("\\s+")).filter(o -> !o.isEmpty()).toList(), out);
        RedisProcess redis = RedisProcess.start(out.resolve("redis"), "--appendonly", "no", "--save", "");
        Runtime.getRuntime().addShutdownHook(new Thread(redis::stop));
        try {
            BenchSettings settings = new BenchSettings(base.jar(), redis.url(), base.jobs(), base.dupRatio(), base.seed(),
                    base.chunk(), base.probes(), base.warmup(), base.timeoutSeconds(), base.appProps(), base.jvmOptions(), out);
            new Benchmark(settings, env).runAll(redis);
        } finally {
            redis.stop();
        }
    }

    private void runAll(RedisProcess redisProcess) throws IOException {
        List<String> sections = List.of(env.getOrDefault("SECTIONS",
                "matrix overlap dedupoff controls sql scaling wrk startup ceiling memory").trim().split("\\s+"));
        int repeats = Integer.parseInt(env.getOrDefault("REPEATS", "1"));
        int[] concurrencies = Arrays.stream(env.getOrDefault("CONCURRENCIES", "1 16 64").trim().split("\\s+"))
                .mapToInt(Integer::parseInt).toArray();
        int idlePct = Integer.parseInt(env.getOrDefault("WAIT_IDLE_PCT", "0"));
        int idleMax = Integer.parseInt(env.getOrDefault("WAIT_IDLE_MAX_S", "60"));
        List<String> peerVariants = List.of(env.getOrDefault("BULLMQ_VARIANTS", "dedup-option dedup-jobid").trim()
                .split("\\s+"));
        Path peerDir = env.containsKey("BULLMQ_DIR") ? Path.of(env.get("BULLMQ_DIR")) : null;
        String peerMissing = Bullmq.unavailable(peerDir);
        Bullmq peer = peerMissing == null ? new Bullmq(peerDir, settings) : null;

        Machine machine = Machine.describe(settings.redisUrl());
        log("machine: " + machine.summary());
        try (BenchRedis redis = new BenchRedis(settings.redisUrl());
                AppJvm stagingApi = startApi("noop-staging", "api-staging");
                AppJvm directApi = startApi("noop", "api-direct")) {
            warmUp(redis, stagingApi);
            warmUp(redis, directApi);
            DedupqCell dedupq = new DedupqCell(settings, redis, stagingApi.port(), directApi.port());
            // HANDLERS: where the matrix runs the no-op handler, "loop" (event loop) and/or "threads" (handler threads)
            List<String> handlers = List.of(env.getOrDefault("HANDLERS", "loop threads").trim().split("\\s+"));
            List<DedupqCell> matrixCells = new ArrayList<>();
            if (handlers.contains("loop")) {
                matrixCells.add(dedupq);
            }
            if (handlers.contains("threads")) {
                matrixCells.add(dedupq.onHandlerThreads());
            }
            Map<String, Double> startup = new LinkedHashMap<>();
            if (sections.contains("startup")) {
                // STARTUP_STARTS: idle workers started one after another; one start is too noisy a sample
                startup = startup(directApi, Integer.parseInt(env.getOrDefault("STARTUP_STARTS", "5")));
            }
            for (int rep = 1; rep <= repeats; rep++) {
                if (sections.contains("matrix")) {
                    for (int conc : concurrencies) {
                        for (DedupqCell cells : matrixCells) {
                            for (Producer.Mode mode : Producer.Mode.values()) {
                                cell("matrix", rep, idlePct, idleMax,
                                        () -> List.of(cells.run(mode, conc, 1, false, tag(cells.variant(mode), conc, 1, false))));
                            }
                        }
                        for (String variant : peerVariants) {
                            if (peer != null) {
                                cell("matrix", rep, idlePct, idleMax,
                                        () -> peer.run(variant, conc, false, tag("bullmq-" + variant, conc, 1, false)));
                            }
                        }
                    }
                }
                if (sections.contains("overlap")) {
                    for (Producer.Mode mode : Producer.Mode.values()) {
                        cell("overlap", rep, idlePct, idleMax,
                                () -> List.of(dedupq.run(mode, 16, 1, true, tag(mode.name(), 16, 1, true))));
                    }
                    for (String variant : peerVariants) {
                        if (peer != null) {
                            cell("overlap", rep, idlePct, idleMax,
                                    () -> peer.run(variant, 16, true, tag("bullmq-" + variant, 16, 1, true)));
                        }
                    }
                }
                if (sections.contains("dedupoff")) {
                    for (DedupqCell cells : dedupq.withAndWithoutDedup()) {
                        cell("dedupoff", rep, idlePct, idleMax, () -> List.of(marked(cells.run(Producer.Mode.LPUSH, 16, 1,
                                false, tag(cells.variant(Producer.Mode.LPUSH), 16, 1, false)), "dedupoff")));
                    }
                }
                if (sections.contains("controls")) {
                    for (DedupqCell cells : dedupq.withControls()) {
                        cell("controls", rep, idlePct, idleMax, () -> List.of(marked(cells.run(Producer.Mode.LPUSH, 16, 1,
                                false, tag(cells.variant(Producer.Mode.LPUSH), 16, 1, false)), "controls")));
                    }
                }
                if (sections.contains("sql")) {
                    sqlCells(dedupq, rep, idlePct, idleMax);
                }
                if (sections.contains("replicas")) {
                    replicaCells(redisProcess, dedupq, rep, idlePct, idleMax);
                }
                if (sections.contains("scaling")) {
                    for (int workers : new int[] {1, 2, 4}) {
                        cell("scaling", rep, idlePct, idleMax, () -> List.of(marked(dedupq.run(Producer.Mode.LPUSH, 16,
                                workers, false, tag("scaling", 16, workers, false)), "scaling")));
                    }
                }
            }
            List<Wrk.Result> wrk = new ArrayList<>();
            List<Bullmq.AddRate> peerAdds = new ArrayList<>();
            if (sections.contains("wrk") && Wrk.installed()) {
                wrk = wrk(redis, directApi);
                for (Wrk.Result r : peer == null ? List.<Wrk.Result>of() : wrk) {
                    Bullmq.AddRate add = peer.add(r.tasksPerRequest(), r.connections(), (int) r.seconds());
                    log("bullmq add " + add);
                    peerAdds.add(add);
                }
            }
            List<DedupqCell.Memory> memory = new ArrayList<>();
            Bullmq.Memory peerMemory = null;
            if (sections.contains("memory")) {
                int tasks = Integer.parseInt(env.getOrDefault("MEMORY_TASKS", "100000"));
                // the default retention, read when all have finished; then a short one, read after it
                memory.add(dedupq.memory(tasks, Duration.ofHours(1), false, "memory-within"));
                memory.add(dedupq.memory(tasks, Duration.ofSeconds(1), true, "memory-after"));
                memory.forEach(m -> log("memory dedupq " + m));
                if (peer != null) {
                    redis.send(Command.FLUSHALL);
                    peerMemory = peer.memory(redis, tasks);
                    log("memory bullmq " + peerMemory);
                }
            }
            List<Ceiling.Row> ceiling = List.of();
            if (sections.contains("ceiling") && peerDir != null && Files.isRegularFile(peerDir.resolve("ceiling.sh"))) {
                log("redis-benchmark ceiling ...");
                redis.send(Command.FLUSHALL);
                ceiling = Ceiling.run(peerDir, Integer.parseInt(redisProcess.url().replaceAll(".*:", "")), settings.out());
            }
            String report = new ReportPage(settings, machine, repeats, idlePct, peerMissing, sections)
                    .write(new Report(results), startup, wrk, peerAdds, ceiling, memory, peerMemory);
            Files.writeString(settings.out().resolve("report.md"), report);
            log("report: " + settings.out().resolve("report.md"));
            if (env.containsKey("DOC")) {
                splice(Path.of(env.get("DOC")), report);
                log("updated " + env.get("DOC"));
            }
            long violations = results.stream().filter(r -> r.impl().equals("dedupq") && !DedupqCell.dedupOff(r))
                    .mapToLong(r -> r.idsRunTwice() + r.idsMissing()).sum();
            if (violations > 0) {
                log("DEDUPQ VIOLATION: " + violations + " ids ran twice or never (see report)");
                System.exit(3);
            }
        }
    }

    private interface CellRun {
        List<CellResult> run();
    }

    private void cell(String section, int rep, int idlePct, int idleMax, CellRun run) throws IOException {
        double busy = CpuMeter.waitIdle(idlePct, idleMax);
        List<CellResult> cells = run.run();
        for (CellResult r : cells) {
            results.add(r);
            Files.writeString(settings.out().resolve("results.jsonl"), json.writeValueAsString(r) + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            log(String.format(java.util.Locale.ROOT,
                    "%s rep %d: %s %s conc %d workers %d%s: enqueue %.0f/s processing %.0f/s wait p50 %.0f ms, "
                            + "executions %d, ids run twice %d, never %d, foreign CPU %.1f %%%s",
                    section, rep, r.impl(), r.variant(), r.concurrency(), r.workers(), r.overlap() ? " overlap" : "",
                    r.enqueueRate(), r.processingRate(), r.waitP50(), r.executions(), r.idsRunTwice(), r.idsMissing(),
                    r.foreignCpuPct(), idlePct > 0 ? String.format(" (host busy before: %.0f %%)", busy) : ""));
        }
    }

    /**
     * The sql pair (a row per task, plain and fenced) against a private PostgreSQL; each cell's
     * rows for the measured tasks are counted afterwards, as evidence that each wrote once.
     */
    private void sqlCells(DedupqCell dedupq, int rep, int idlePct, int idleMax) throws IOException {
        try (BenchDatabase db = BenchDatabase.start(settings.out().resolve("postgres-" + rep))) {
            for (DedupqCell cells : dedupq.withAndWithoutFencing(db.jdbcUrl(), db.user())) {
                cell("sql", rep, idlePct, idleMax, () -> {
                    db.reset();
                    CellResult r = cells.run(Producer.Mode.LPUSH, 16, 1, false, tag(cells.variant(Producer.Mode.LPUSH), 16, 1,
                            false));
                    return List.of(marked(r, "sql", Map.of("sql_rows", (double) db.measuredRows())));
                });
            }
        }
    }

    /** The result marked as one of {@code section}'s, so that it is reported there and not in the matrix. */
    /**
     * The replicas pair, with a replica of the bench's Redis running for both cells (so that they
     * differ only in the WAIT): started for this repeat, stopped after it.
     */
    private void replicaCells(RedisProcess master, DedupqCell dedupq, int rep, int idlePct, int idleMax)
            throws IOException {
        RedisProcess replica = RedisProcess.start(settings.out().resolve("replica-" + rep), "--appendonly", "no",
                "--save", "", "--replicaof", "127.0.0.1", Integer.toString(master.port()));
        try (BenchRedis replicaClient = new BenchRedis(replica.url())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!"up".equals(replicaClient.info("replication").get("master_link_status"))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the replica of the bench's Redis did not sync within 60 s");
                }
                Thread.sleep(100);
            }
            for (DedupqCell cells : dedupq.withAndWithoutReplicas()) {
                cell("replicas", rep, idlePct, idleMax, () -> List.of(marked(cells.run(Producer.Mode.LPUSH, 16, 1,
                        false, tag(cells.variant(Producer.Mode.LPUSH), 16, 1, false)), "replicas")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } finally {
            replica.stop();
        }
    }

    private static CellResult marked(CellResult r, String section) {
        return marked(r, section, Map.of());
    }

    private static CellResult marked(CellResult r, String section, Map<String, Double> more) {
        Map<String, Double> extra = new LinkedHashMap<>(r.extra());
        extra.put(section, 1.0);
        extra.putAll(more);
        return new CellResult(r.impl(), r.variant(), r.concurrency(), r.workers(), r.overlap(), r.jobs(), r.unique(),
                r.enqueueRate(), r.processingRate(), r.waitP50(), r.waitP99(), r.idlePickupP50(), r.idlePickupP99(),
                r.refusedAtEnqueue(), r.droppedByWorker(), r.executions(), r.idsRunTwice(), r.idsMissing(),
                r.dupsAfterDone(), r.dedupRedisUsecPerTask(), r.redisUsecPerTask(), r.appCpuPct(), r.redisCpuPct(),
                r.foreignCpuPct(), extra, r.timedOut());
    }

    /** An API-only pod that knows the noop type and routes it to {@code queue}. */
    private AppJvm startApi(String queue, String name) {
        return settings.startApp(name, Map.of("dedupq.worker.enabled", "false", "dedupq.routes.noop", queue));
    }

    /** JIT warm-up of an API pod (BullMQ's warm-up pass also warms its enqueue path): WARMUP tasks. */
    private void warmUp(BenchRedis redis, AppJvm api) {
        Workload warm = Workload.generate(Math.max(1000, settings.warmup()), settings.dupRatio(), settings.seed() + 2);
        Producer producer = new Producer(Producer.Mode.HTTP, redis, null, api.port());
        for (int from = 0; from < warm.jobs(); from += settings.chunk()) {
            producer.send(warm.lids(), from, Math.min(warm.jobs(), from + settings.chunk()), "h");
        }
        for (int k = 0; k < settings.probes(); k++) {
            producer.sendOne("h1-" + k, k);
        }
        redis.send(Command.FLUSHALL);
    }

    /**
     * JVM start (outside: until HTTP answers; inside: Quarkus "started in"); RSS of an idle worker
     * after 5 s, and of the API pod idle after its warm-up. The worker's figures are the medians of
     * {@code starts} starts, its time to answer also their least and most.
     */
    private Map<String, Double> startup(AppJvm api, int starts) {
        Map<String, List<Double>> workers = new LinkedHashMap<>();
        for (int i = 1; i <= starts; i++) {
            try (AppJvm worker = settings.startApp("idle-worker-" + i, DedupqCell.workerProps(8, "bench-idle-" + i, Map.of()))) {
                AppJvm.sleep(5000);
                workers.computeIfAbsent("worker_ready_ms", k -> new ArrayList<>()).add((double) worker.readyMillis());
                workers.computeIfAbsent("worker_ready_cpu_ms", k -> new ArrayList<>()).add((double) worker.readyCpuMillis());
                workers.computeIfAbsent("worker_quarkus_started_ms", k -> new ArrayList<>())
                        .add((double) worker.quarkusStartedMillis());
                workers.computeIfAbsent("worker_idle_rss_mib", k -> new ArrayList<>()).add(worker.rssKib() / 1024.0);
            }
        }
        Map<String, Double> startup = new LinkedHashMap<>();
        workers.forEach((name, values) -> startup.put(name,
                Report.median(values.stream().mapToDouble(Double::doubleValue).sorted().toArray())));
        List<Double> ready = workers.get("worker_ready_ms");
        startup.put("worker_starts", (double) ready.size());
        startup.put("worker_ready_ms_min", Collections.min(ready));
        startup.put("worker_ready_ms_max", Collections.max(ready));
        startup.put("api_ready_ms", (double) api.readyMillis());
        startup.put("api_ready_cpu_ms", (double) api.readyCpuMillis());
        startup.put("api_quarkus_started_ms", (double) api.quarkusStartedMillis());
        startup.put("api_rss_mib", api.rssKib() / 1024.0);
        log("startup: " + startup + ", worker starts " + workers);
        return startup;
    }

    /**
     * The cells of WRK_CELLS, each "tasks per request@connections" (1: POST /api/tasks, more:
     * /api/tasks/batch); each after a wrk warm-up of WRK_WARMUP_SECONDS (the API pod's JIT is
     * still compiling the request path for the first 20 s or so under this load). 1000-task
     * batches run at 8 connections by default: at 64, 64,000 tasks are in flight, their wait
     * alone passes the guard's timeout on a 2-core host, and the pod sheds most calls with 503.
     */
    private List<Wrk.Result> wrk(BenchRedis redis, AppJvm api) {
        int seconds = Integer.parseInt(env.getOrDefault("WRK_SECONDS", "10"));
        int warmup = Integer.parseInt(env.getOrDefault("WRK_WARMUP_SECONDS", "20"));
        Wrk wrk = new Wrk(Path.of(env.getOrDefault("WRK_SCRIPTS", "bench/wrk")), settings.out());
        List<Wrk.Result> runs = new ArrayList<>();
        for (String cell : env.getOrDefault("WRK_CELLS", "1@64 100@64 1000@8").trim().split("\\s+")) {
            int size = Integer.parseInt(cell.substring(0, cell.indexOf('@')));
            int connections = Integer.parseInt(cell.substring(cell.indexOf('@') + 1));
            String tag = size + "x" + connections;
            redis.send(Command.FLUSHALL);
            wrk.run(api.port(), connections, size, warmup, "warm" + tag, CpuMeter.of(List.of(api), redis));
            redis.send(Command.FLUSHALL);
            awaitAccepting(api, tag);
            Wrk.Result r = wrk.run(api.port(), connections, size, seconds, "run" + tag, CpuMeter.of(List.of(api), redis));
            log("wrk " + r);
            runs.add(r);
        }
        redis.send(Command.FLUSHALL);
        return runs;
    }

    /**
     * Until the API pod accepts a task again. FLUSHALL of the warm-up's tasks blocks Redis for a
     * second or more while the warm-up's last enqueues still wait for it: they time out, and the
     * pod's circuit breaker opens for its delay, so a run started at once would measure the
     * breaker's refusals of the bench's own housekeeping.
     */
    private static void awaitAccepting(AppJvm api, String tag) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        for (int n = 0; System.nanoTime() < deadline; n++) {
            String probe = "{\"id\":\"probe-" + tag + "-" + n + "\",\"type\":\"noop\",\"payload\":{\"lid\":0}}";
            if (api.send("POST", "/api/tasks", probe).statusCode() == 202) {
                return;
            }
            AppJvm.sleep(200);
        }
        throw new IllegalStateException("the API pod did not accept a task within 30 s of the FLUSHALL");
    }

    private static String tag(String what, int conc, int workers, boolean overlap) {
        return what.toLowerCase() + "-c" + conc + "-w" + workers + (overlap ? "-overlap" : "") + "-" + System.nanoTime();
    }

    /** Replaces what is between the markers in {@code doc} (or appends them with the report). */
    static void splice(Path doc, String report) throws IOException {
        String text = Files.exists(doc) ? Files.readString(doc) : "";
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        String block = BEGIN + "\n" + report + END;
        String updated = begin >= 0 && end > begin ? text.substring(0, begin) + block + text.substring(end + END.length())
                : text + (text.isEmpty() ? "" : "\n") + block + "\n";
        Files.writeString(doc, updated);
    }

    static void log(String text) {
        System.out.println("[bench " + Instant.now().toString().substring(11, 19) + "] " + text);
    }
}
