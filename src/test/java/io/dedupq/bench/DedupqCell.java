package io.dedupq.bench;

import io.dedupq.queue.LuaScript;
import io.dedupq.support.AppJvm;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One dedupq cell: enqueue the workload (HTTP batch or LPUSH), run {@code workers} worker JVMs
 * at {@code concurrency} with the no-op handler, and measure from evidence in Redis: the
 * handler's own run records (one entry per execution), the task hashes (enqueuedAt,
 * startedAt, finishedAt) and the queue's counters. Overlap: the workers run before the first
 * task arrives, so duplicates also come after their first copy finished.
 */
public final class DedupqCell {

    private static final String QUEUE = "noop";
    private static final String BASE = "{dedupq:" + QUEUE + "}:";
    /** Where the workload waits during the warm-up: the pending list of queue noop-staging. */
    static final String STAGING_PENDING = "{dedupq:noop-staging}:pending";
    /**
     * Commands claim.lua runs only to deduplicate: lock, dedup record (its HSET, counted with the
     * task hash's, is left out), stale check.
     */
    private static final List<String> DEDUP_COMMANDS = List.of("set", "exists", "get", "del", "hget", "pttl");
    /**
     * Commands dedupq's scripts run. Redis counts a command a script runs in INFO commandstats
     * under its own name and again in the script's EVALSHA time, so Redis's time is the sum over
     * the other rows: each script once, with what it ran, and the commands clients sent themselves.
     */
    static final Set<String> SCRIPT_COMMANDS = scriptCommands();
    /** Most tasks of an sql cell: a few seconds of PostgreSQL transactions are enough to compare two handlers. */
    private static final int SQL_JOBS = 20_000;
    /** Groups of the {@code -groups} cell of {@link #withControls}. */
    private static final int CONTROL_GROUPS = 1000;

    private final BenchSettings settings;
    private final BenchRedis redis;
    private final int stagingApiPort;
    private final int directApiPort;
    /** Appended to the variant name of this cell's results ({@code -threads}, {@code -dedup-off}). */
    private final String suffix;
    /** Worker settings that make this cell what its suffix says. */
    private final Map<String, String> workerSettings;
    /** The workload's tasks fall into this many groups (the producer names each task's); 0: none. */
    private final int groups;

    /**
     * The API pods for HTTP mode (0 when only LPUSH is measured): {@code stagingApiPort} routes
     * {@code noop} tasks to the staging queue, {@code directApiPort} to the measured one.
     */
    public DedupqCell(BenchSettings settings, BenchRedis redis, int stagingApiPort, int directApiPort) {
        this(settings, redis, stagingApiPort, directApiPort, "", Map.of(), 0);
    }

    private DedupqCell(BenchSettings settings, BenchRedis redis, int stagingApiPort, int directApiPort, String suffix,
            Map<String, String> workerSettings, int groups) {
        this.settings = settings;
        this.redis = redis;
        this.stagingApiPort = stagingApiPort;
        this.directApiPort = directApiPort;
        this.suffix = suffix;
        this.workerSettings = workerSettings;
        this.groups = groups;
    }

    /** The cell's name in the report: {@code http}, {@code lpush}, with this cell's suffix. */
    public String variant(Producer.Mode mode) {
        return mode.name().toLowerCase() + suffix;
    }

    /**
     * The same cells with the no-op handler on the queue's handler threads, the way a handler
     * that blocks (a payment's database call) runs; variants {@code http-threads}, {@code lpush-threads}.
     */
    public DedupqCell onHandlerThreads() {
        return with(settings, "-threads", Map.of("bench.noop-blocking", "true"));
    }

    /**
     * The pair that measures what deduplication costs, on a workload without duplicates (so both
     * run every task once and differ only in the dedup work): this cell as it is, and the same on
     * the application's dedup-off build, whose claim.lua has no done-marker check and no lock.
     */
    public List<DedupqCell> withAndWithoutDedup() {
        BenchSettings unique = settings.withDupRatio(0);
        return List.of(with(unique, "", Map.of()), with(unique.withJar(unique.dedupOffJar()), "-dedup-off", Map.of()));
    }

    /**
     * What the queue's controls cost the hot path, on a workload without duplicates: this cell as
     * it is ({@code ""}), with a rate limit far above the rate reached ({@code -rate}: every start
     * is logged and the log trimmed, none is held), and with group concurrency 1 over
     * {@value #CONTROL_GROUPS} groups ({@code -groups}: every claim checks its task's group, and
     * copies of a group that is running wait parked).
     */
    public List<DedupqCell> withControls() {
        BenchSettings unique = settings.withDupRatio(0);
        String queue = "dedupq.queues." + QUEUE;
        return List.of(with(unique, "", Map.of()), with(unique, "-rate", Map.of(queue + ".rate-limit", "1000000/1s")),
                with(unique, "-groups", Map.of(queue + ".group-concurrency", "1"), CONTROL_GROUPS));
    }

    /**
     * What {@code dedupq.durability.replicas=1} costs the workers, on a workload without
     * duplicates: this cell as it is, and with each claim.lua call followed by {@code WAIT 1}
     * ({@code -replicas-1}). The caller runs a replica of the bench's Redis for both.
     */
    public List<DedupqCell> withAndWithoutReplicas() {
        BenchSettings unique = settings.withDupRatio(0);
        return List.of(with(unique, "", Map.of()), with(unique, "-replicas-1", Map.of("dedupq.durability.replicas", "1")));
    }

    /**
     * This cell on {@code runSettings}, its variant names extended by {@code more}, its workers
     * given {@code moreSettings} on top of its own.
     */
    private DedupqCell with(BenchSettings runSettings, String more, Map<String, String> moreSettings) {
        return with(runSettings, more, moreSettings, groups);
    }

    /** As {@link #with(BenchSettings, String, Map)}, the workload's tasks in {@code taskGroups} groups. */
    private DedupqCell with(BenchSettings runSettings, String more, Map<String, String> moreSettings, int taskGroups) {
        Map<String, String> merged = new HashMap<>(workerSettings);
        merged.putAll(moreSettings);
        return new DedupqCell(runSettings, redis, stagingApiPort, directApiPort, suffix + more, Map.copyOf(merged),
                taskGroups);
    }

    /**
     * The pair that measures what fencing an SQL write costs, on a workload without duplicates and
     * with a shorter warm-up (each task is a PostgreSQL transaction): the application's sql build,
     * whose handler inserts one row per task into {@code db}, in a plain transaction
     * ({@code -sql-plain}) and through FencedWrites ({@code -sql-fenced}), on handler threads.
     */
    public List<DedupqCell> withAndWithoutFencing(String jdbcUrl, String user) {
        BenchSettings sql = settings.withDupRatio(0).withJar(settings.sqlJar())
                .withJobs(Math.min(settings.jobs(), SQL_JOBS), settings.probes(), Math.min(settings.warmup(), SQL_JOBS / 2));
        Map<String, String> db = Map.of("quarkus.datasource.jdbc.url", jdbcUrl, "quarkus.datasource.username", user);
        return List.of(with(sql, "-sql-plain", plus(db, "bench.sql.fenced", "false")),
                with(sql, "-sql-fenced", plus(db, "bench.sql.fenced", "true")));
    }

    private static Map<String, String> plus(Map<String, String> settings, String key, String value) {
        Map<String, String> more = new HashMap<>(settings);
        more.put(key, value);
        return more;
    }

    /** True for cells whose duplicate executions are expected ({@link #withAndWithoutDedup}). */
    static boolean dedupOff(CellResult r) {
        return r.variant().endsWith("-dedup-off");
    }

    /**
     * Without overlap the workload is enqueued while the workers only warm up: into the staging
     * queue {@code noop-staging} (by HTTP through an API pod routing there, or by LPUSH), whose
     * pending list is renamed onto the measured queue when the warm-up is done, so the workers
     * meet a full backlog with a warm JIT, as BullMQ's worker does after its warm-up pass.
     */
    public CellResult run(Producer.Mode mode, int concurrency, int workerCount, boolean overlap, String tag) {
        Workload work = Workload.generate(settings.jobs(), settings.dupRatio(), settings.seed());
        redis.send(Command.FLUSHALL);
        Producer producer = new Producer(mode, redis, overlap ? BASE + "pending" : STAGING_PENDING,
                overlap ? directApiPort : stagingApiPort, groups);
        List<AppJvm> workers = new ArrayList<>();
        try {
            startWorkers(workers, workerCount, concurrency, tag);
            warmUp();
            Map<String, Long> before = stats();
            CpuMeter cpu = CpuMeter.of(workers, redis);
            if (overlap) {
                cpu.begin();
            }
            long[] chunkStartedAt = new long[(work.jobs() + settings.chunk() - 1) / settings.chunk()];
            long accepted = 0;
            long refused = 0;
            long t0 = System.nanoTime();
            for (int from = 0, c = 0; from < work.jobs(); from += settings.chunk(), c++) {
                chunkStartedAt[c] = System.currentTimeMillis();
                Producer.Sent sent = producer.send(work.lids(), from, Math.min(work.jobs(), from + settings.chunk()));
                accepted += sent.accepted();
                refused += sent.refusedDuplicates();
            }
            double enqueueRate = work.jobs() / ((System.nanoTime() - t0) / 1e9);
            if (!overlap) {
                redis.send(Command.CONFIG, "RESETSTAT");
                cpu.begin();
                redis.send(Command.RENAME, STAGING_PENDING, BASE + "pending");
            }
            long released = System.nanoTime();
            boolean timedOut = !awaitDrained(before, mode == Producer.Mode.LPUSH ? accepted : work.unique());
            double drainRate = work.unique() / ((System.nanoTime() - released) / 1e9);
            CpuMeter.Usage usage = cpu.end();
            Map<String, long[]> commandStats = overlap ? Map.of() : commandStats();
            awaitRunRecords(stats().get("succeeded") - before.get("succeeded"));
            AppJvm.sleep(300); // a late duplicate would show up in the run records now
            Evidence evidence = evidence(work, chunkStartedAt);
            redis.send(Command.DEL, BASE + "bench-runs"); // counted; what arrives from now on is new
            long dropped = stats().get("skipped") - before.get("skipped");
            double[] pickup = probes(new Producer(mode, redis, BASE + "pending", directApiPort, groups));
            long lateRuns = (long) pickup[2];
            long dedupUsec = DEDUP_COMMANDS.stream().mapToLong(c -> commandStats.getOrDefault(c, new long[2])[1]).sum();
            long allUsec = redisUsec(commandStats);
            Map<String, Double> extra = new LinkedHashMap<>();
            extra.put("drain_rate", drainRate);
            extra.put("http_503_retries", (double) producer.retries());
            extra.put("evalsha_per_task", commandStats.containsKey("evalsha")
                    ? commandStats.get("evalsha")[0] / (double) work.unique() : -1);
            extra.put("worker_ready_ms", workers.stream().mapToDouble(AppJvm::readyMillis).average().orElse(-1));
            extra.put("host_busy_pct", usage.hostBusyPct());
            extra.put("redis_cpu_us_per_task", 1e6 * usage.redisSeconds() / work.unique());
            return new CellResult("dedupq", variant(mode), concurrency, workerCount, overlap, work.jobs(),
                    work.unique(), enqueueRate, evidence.processingRate, evidence.waitP50, evidence.waitP99, pickup[0],
                    pickup[1], refused, dropped, evidence.executions + lateRuns, evidence.idsRunTwice + lateRuns,
                    evidence.idsMissing,
                    overlap ? evidence.dupsAfterDone : -1,
                    commandStats.isEmpty() ? -1 : dedupUsec / (double) work.unique(),
                    commandStats.isEmpty() ? -1 : allUsec / (double) work.unique(), usage.dedupqPct(), usage.redisPct(),
                    usage.foreignPct(), extra, timedOut);
        } finally {
            workers.forEach(AppJvm::close);
        }
    }

    /** Redis memory per finished task in one run of {@link #memory}, and the keys its tasks added. */
    public record Memory(int tasks, Duration retention, boolean afterRetention, double bytesPerTask, long keysAdded) {
    }

    /**
     * The memory section: {@code tasks} unique tasks, ids {@code payment-2026-<n>} (14 to 18
     * characters), by HTTP batch through the API pod to one worker whose queue keeps results for
     * {@code retention}; {@link BenchRedis#usedMemory} once every task has finished or, with
     * {@code afterRetention}, once the retention has passed too, less the reading before the
     * tasks, per task. One task first loads the scripts and makes the queue's own keys; the
     * handler's run records (the bench's evidence) are deleted before each reading.
     */
    public Memory memory(int tasks, Duration retention, boolean afterRetention, String tag) {
        redis.send(Command.FLUSHALL);
        List<AppJvm> workers = new ArrayList<>();
        try {
            with(settings, "", Map.of("dedupq.queues." + QUEUE + ".result-retention", retention.toMillis() + "ms"))
                    .startWorkers(workers, 1, 16, tag);
            Producer producer = new Producer(Producer.Mode.HTTP, redis, null, directApiPort);
            Map<String, Long> before = stats();
            producer.sendOne("payment-warm-up", 0);
            awaitDrainedAndRecorded(before, 1);
            if (afterRetention) {
                AppJvm.sleep(retention.toMillis());
            }
            long keysBefore = redis.keysAfterSweep();
            long base = redis.usedMemory();
            int[] lids = new int[tasks];
            Arrays.setAll(lids, i -> i);
            before = stats();
            for (int from = 0; from < tasks; from += settings.chunk()) {
                producer.send(lids, from, Math.min(tasks, from + settings.chunk()), "payment-2026-");
            }
            awaitDrainedAndRecorded(before, tasks);
            if (afterRetention) {
                AppJvm.sleep(retention.toMillis() + 1000);
            }
            long keys = redis.keysAfterSweep() - keysBefore;
            return new Memory(tasks, retention, afterRetention, (redis.usedMemory() - base) / (double) tasks, keys);
        } finally {
            workers.forEach(AppJvm::close);
        }
    }

    /** Until {@code copies} more tasks succeeded and their run records arrived; then the records are deleted. */
    private void awaitDrainedAndRecorded(Map<String, Long> before, long copies) {
        if (!awaitDrained(before, copies)) {
            throw new IllegalStateException(copies + " tasks did not finish within " + settings.timeoutSeconds() + " s");
        }
        awaitRunRecords(copies);
        redis.send(Command.DEL, BASE + "bench-runs");
    }

    /** Runs the warm-up workload (ids "w<n>") through the workers, then forgets its run records. */
    private void warmUp() {
        if (settings.warmup() <= 0) {
            return;
        }
        Workload warm = Workload.generate(settings.warmup(), settings.dupRatio(), settings.seed() + 1);
        Map<String, Long> before = stats();
        Request push = Request.cmd(Command.LPUSH).arg(BASE + "pending");
        for (int lid : warm.lids()) {
            push.arg("{\"id\":\"w" + lid + "\",\"type\":\"noop\",\"payload\":{\"lid\":" + lid + "},\"attempt\":0}");
        }
        redis.pipeline(List.of(push));
        if (!awaitDrained(before, warm.jobs())) {
            throw new IllegalStateException("warm-up did not drain");
        }
        redis.send(Command.DEL, BASE + "bench-runs");
    }

    private void startWorkers(List<AppJvm> workers, int count, int concurrency, String tag) {
        List<Thread> starting = new ArrayList<>();
        AppJvm[] started = new AppJvm[count];
        for (int k = 0; k < count; k++) {
            int n = k;
            Thread t = new Thread(() -> started[n] = settings.startApp(tag + "-worker" + (n + 1),
                    workerProps(concurrency, "bench-w" + (n + 1), workerSettings)));
            t.start();
            starting.add(t);
        }
        for (Thread t : starting) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        for (AppJvm worker : started) {
            if (worker == null) {
                throw new IllegalStateException("a worker did not start; see " + settings.out().resolve("logs"));
            }
            workers.add(worker);
        }
        // claim.lua claims only for workers whose heartbeat on the queue is fresh
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (redis.send(Command.ZCARD, BASE + "workers").toLong() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("workers did not register on queue " + QUEUE);
            }
            AppJvm.sleep(10);
        }
    }

    /** A worker-only pod. */
    static Map<String, String> workerProps(int concurrency, String id, Map<String, String> more) {
        Map<String, String> props = new HashMap<>(Map.of("dedupq.api.enabled", "false",
                "dedupq.queues.noop.concurrency", Integer.toString(concurrency), "dedupq.worker.id", id));
        props.putAll(more);
        return props;
    }

    /**
     * Until every copy is accounted for: run to success, dropped as a duplicate, or (with
     * deduplication off) run and refused because a copy of the same id ran meanwhile; nothing pending.
     */
    private boolean awaitDrained(Map<String, Long> before, long copies) {
        long deadline = System.nanoTime() + Duration.ofSeconds(settings.timeoutSeconds()).toNanos();
        long done = accounted(before) + copies;
        while (System.nanoTime() < deadline) {
            Map<String, Long> stats = stats();
            if (accounted(stats) >= done && stats.get("pending") == 0) {
                return true;
            }
            AppJvm.sleep(20);
        }
        return false;
    }

    private static long accounted(Map<String, Long> stats) {
        return stats.get("succeeded") + stats.get("skipped") + stats.get("refused");
    }

    private Map<String, Long> stats() {
        List<Response> replies = redis.pipeline(List.of(
                BenchRedis.request(Command.HMGET, BASE + "stats", "succeeded", "skipped_done", "skipped_locked",
                        "skipped_stale", "lost_locks"),
                BenchRedis.request(Command.LLEN, BASE + "pending")));
        Response counts = replies.get(0);
        Map<String, Long> stats = new HashMap<>();
        stats.put("succeeded", num(counts.get(0)));
        stats.put("skipped", num(counts.get(1)) + num(counts.get(2)) + num(counts.get(3)));
        stats.put("refused", num(counts.get(4)));
        stats.put("pending", replies.get(1).toLong());
        return stats;
    }

    /** Redis's time in {@code commandStats} (µs), each command once: the rows of {@link #SCRIPT_COMMANDS} are inside their scripts' time. */
    static long redisUsec(Map<String, long[]> commandStats) {
        return commandStats.entrySet().stream().filter(e -> !SCRIPT_COMMANDS.contains(e.getKey()))
                .mapToLong(e -> e.getValue()[1]).sum();
    }

    private static Set<String> scriptCommands() {
        Pattern call = Pattern.compile("redis\\.p?call\\('([A-Za-z]+)'");
        Set<String> names = new HashSet<>();
        for (LuaScript script : LuaScript.values()) {
            Matcher m = call.matcher(script.source());
            while (m.find()) {
                names.add(m.group(1).toLowerCase(Locale.ROOT));
            }
        }
        return Set.copyOf(names);
    }

    /** Redis INFO commandstats: command -> {calls, usec}. */
    private Map<String, long[]> commandStats() {
        Map<String, long[]> stats = new HashMap<>();
        for (Map.Entry<String, String> e : redis.info("commandstats").entrySet()) {
            if (!e.getKey().startsWith("cmdstat_")) {
                continue;
            }
            long calls = 0;
            long usec = 0;
            for (String field : e.getValue().split(",")) {
                String[] kv = field.split("=");
                if (kv[0].equals("calls")) {
                    calls = Long.parseLong(kv[1]);
                } else if (kv[0].equals("usec")) {
                    usec = Long.parseLong(kv[1]);
                }
            }
            stats.put(e.getKey().substring(8), new long[] {calls, usec});
        }
        return stats;
    }

    private record Evidence(long executions, long idsRunTwice, long idsMissing, double processingRate, double waitP50,
            double waitP99, long dupsAfterDone) {
    }

    /** Counts executions per id from the handler's records and reads every task's timestamps. */
    private Evidence evidence(Workload work, long[] chunkStartedAt) {
        int[] runs = new int[work.unique()];
        long executions = 0;
        for (Response id : redis.send(Command.LRANGE, BASE + "bench-runs", 0, -1)) {
            String text = id.toString();
            if (text.startsWith("t")) {
                executions++;
                runs[Integer.parseInt(text.substring(1))]++;
            }
        }
        long twice = Arrays.stream(runs).filter(r -> r > 1).count();
        long missing = Arrays.stream(runs).filter(r -> r == 0).count();
        List<Request> reads = new ArrayList<>(work.unique());
        for (int lid = 0; lid < work.unique(); lid++) {
            reads.add(BenchRedis.request(Command.HMGET, BASE + "task:" + Workload.taskId(lid), "enqueuedAt", "startedAt",
                    "finishedAt"));
        }
        List<Response> hashes = redis.pipeline(reads);
        long[] finishedAt = new long[work.unique()];
        long[] waits = new long[work.unique()];
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int lid = 0; lid < work.unique(); lid++) {
            Response h = hashes.get(lid);
            waits[lid] = num(h.get(1)) - num(h.get(0));
            finishedAt[lid] = num(h.get(2));
            first = Math.min(first, finishedAt[lid]);
            last = Math.max(last, finishedAt[lid]);
        }
        Arrays.sort(waits);
        boolean[] seen = new boolean[work.unique()];
        long afterDone = 0;
        for (int i = 0; i < work.jobs(); i++) {
            int lid = work.lids()[i];
            if (seen[lid] && finishedAt[lid] > 0 && finishedAt[lid] < chunkStartedAt[i / settings.chunk()]) {
                afterDone++;
            }
            seen[lid] = true;
        }
        double rate = last > first ? (work.unique() - 1) / ((last - first) / 1000.0) : Double.NaN;
        return new Evidence(executions, twice, missing, rate, percentile(waits, 0.5), percentile(waits, 0.99), afterDone);
    }

    /**
     * The handler records a run without waiting for the reply, so records may land a little after
     * claim.lua counted the task: wait until there is one per succeeded task (or 10 s).
     */
    private void awaitRunRecords(long succeeded) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (redis.send(Command.LLEN, BASE + "bench-runs").toLong() < succeeded && System.nanoTime() < deadline) {
            AppJvm.sleep(10);
        }
    }

    /**
     * Sequential single tasks against idle workers: enqueue call until the handler's record
     * arrives (ms). Returns p50, p99 and the number of workload records that still arrived after
     * every id had been counted once: each of those is a second execution.
     */
    private double[] probes(Producer producer) {
        double[] millis = new double[settings.probes()];
        long late = 0;
        for (int k = 0; k < millis.length; k++) {
            String id = "probe" + k;
            long t0 = System.nanoTime();
            producer.sendOne(id, -1 - k);
            String ran;
            while ((ran = redis.brpop(BASE + "bench-runs", Duration.ofSeconds(10))) != null && !ran.equals(id)) {
                late += ran.startsWith("t") ? 1 : 0;
            }
            if (ran == null) {
                throw new IllegalStateException("probe " + id + " not seen running within 10 s");
            }
            millis[k] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(millis);
        return new double[] {percentile(millis, 0.5), percentile(millis, 0.99), late};
    }

    /** Nearest rank, as the peer computes it. */
    static double percentile(long[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[rank(sorted.length, p)];
    }

    static double percentile(double[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[rank(sorted.length, p)];
    }

    private static int rank(int n, double p) {
        return Math.min(n - 1, Math.max(0, (int) Math.ceil(p * n) - 1));
    }

    private static long num(Response value) {
        return value == null ? 0 : Long.parseLong(value.toString());
    }
}
