package io.dedupq.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/** The markdown page of one run: machine, settings, every table, and what each column means. */
public final class ReportPage {

    private final BenchSettings settings;
    private final Machine machine;
    private final int repeats;
    private final int idlePct;
    private final String peerMissing;
    private final List<String> sections;

    public ReportPage(BenchSettings settings, Machine machine, int repeats, int idlePct, String peerMissing,
            List<String> sections) {
        this.settings = settings;
        this.machine = machine;
        this.repeats = repeats;
        this.idlePct = idlePct;
        this.peerMissing = peerMissing;
        this.sections = sections;
    }

    public String write(Report r, Map<String, Double> startup, List<Wrk.Result> wrk, List<Bullmq.AddRate> peerAdds,
            List<Ceiling.Row> ceiling, List<DedupqCell.Memory> memory, Bullmq.Memory peerMemory) {
        r.line("## Run of " + machine.date() + "\n");
        r.line(String.format(Locale.ROOT, "- machine: %d cpus (`nproc`), %s, %d MiB RAM, %s", machine.cpus(),
                machine.cpuModel(), machine.memMib(), machine.kernel()));
        r.line("- JDK " + machine.jdk() + "; Redis " + machine.redis() + " (private, `--save '' --appendonly no`); Node "
                + machine.node());
        r.line(String.format(Locale.ROOT, "- before the run: loadavg `%s`, host %.0f %% busy (all of it foreign: "
                + "nothing of the benchmark ran yet)", machine.loadavg(), machine.busyPctAtStart()));
        r.line(String.format(Locale.ROOT, "- JOBS=%d DUP_RATIO=%s SEED=%d (the peer's workload generator) → %d unique "
                + "ids; chunks of %d; warm-up %d tasks; %d idle probes; REPEATS=%d; WAIT_IDLE_PCT=%d",
                settings.jobs(), settings.dupRatio(), settings.seed(),
                Workload.generate(settings.jobs(), settings.dupRatio(), settings.seed()).unique(), settings.chunk(),
                settings.warmup(), settings.probes(), repeats, idlePct));
        r.line("- dedupq JVMs: `java " + String.join(" ", settings.jvmOptions()) + " -jar quarkus-run.jar` (BENCH_JVM_OPTS)");
        r.line("- BullMQ: " + (peerMissing == null ? "the peer's bench.mjs, same Redis, cells interleaved with dedupq's"
                : "not run: " + peerMissing));
        r.line("- foreign CPU = host busy time used by none of the measured processes (other builds on a shared "
                + "host), % of all cores; cells with a high value are not comparable.\n");
        if (sections.contains("matrix")) {
            r.line("### Enqueue, then process (worker starts on a full backlog)\n");
            r.matrix(false).line("");
            r.line("dedupq ÷ BullMQ (median of each cell):\n");
            r.ratios(false).line("");
            r.line("### Redis time spent on deduplication (dedup overhead)\n");
            r.dedupOverhead().line("");
        }
        if (sections.contains("overlap")) {
            r.line("### Overlap: worker running while tasks and their duplicates arrive\n");
            r.matrix(true).line("");
            r.ratios(true).line("");
        }
        if (sections.contains("dedupoff")) {
            lpushPair(r, "Deduplication on and off", "both ways, so both run every task once. Off, claim.lua "
                    + "neither checks the dedup record nor takes the lock (a mode for this measurement only; duplicates "
                    + "would run).", Report::dedupOff);
        }
        if (sections.contains("controls")) {
            lpushPair(r, "What the queue's controls cost", "through one worker, its queue without controls, with a "
                    + "rate limit it never reaches (each start logged in the sliding window, none held back), and with "
                    + "group concurrency 1 over 1000 groups (the producer names each task's group; a copy whose group "
                    + "is running waits parked).", Report::controls);
        }
        if (sections.contains("replicas")) {
            lpushPair(r, "What waiting for a replica costs the workers", "through one worker, with a replica of the "
                    + "bench's Redis running on this host for both cells: `dedupq.durability.replicas` 0, and 1 (each "
                    + "claim.lua call of a partition's owner followed by `WAIT 1`; its outcomes count and its claims start "
                    + "only once the replica has them).", Report::replicas);
        }
        if (sections.contains("sql")) {
            r.line("### A handler that writes one SQL row (PostgreSQL 15, LPUSH, no duplicates, concurrency 16, handler "
                    + "threads)\n");
            r.line("bench/app's sql build: each task inserts one row into `bench_row`, once in a plain transaction "
                    + "and once through `FencedWrites.run`, which adds the claim of the task's `dedupq_effect` row "
                    + "(its own autocommit statement), a read of it, and the outcome's update in the write's "
                    + "transaction. The private PostgreSQL runs on the same cores, with default settings.\n");
            r.sql().line("");
        }
        if (sections.contains("scaling")) {
            r.line("### Worker processes on one Redis (LPUSH workload, concurrency 16 each)\n");
            r.scaling().line("");
        }
        if (!wrk.isEmpty()) {
            r.line("### HTTP enqueue with wrk (API pod, worker off, fresh ids)\n");
            r.wrk(wrk, peerAdds).line("");
            if (!peerAdds.isEmpty()) {
                r.line("BullMQ: `Queue.add` (1 job per call) or `addBulk` (as many jobs per call as the row's tasks per "
                        + "request) from Node, as many calls in flight as wrk has connections, fresh ids with the "
                        + "deduplication option, on the same Redis right after the dedupq row (bench/peer/add.mjs); no "
                        + "HTTP in between.\n");
            }
        }
        if (!startup.isEmpty()) {
            r.line("### JVM start and memory (packaged jar, `java -jar`, default heap)\n");
            r.line("| pod | process start → HTTP answers, ms | CPU until then, ms | Quarkus \"started in\", ms | RSS, MiB |");
            r.line("|---|---:|---:|---:|---:|");
            r.line("| worker (idle 5 s, API off; median of " + Report.fmt(startup.get("worker_starts"))
                    + " starts, least–most time in brackets) | " + Report.fmt(startup.get("worker_ready_ms")) + " ("
                    + Report.fmt(startup.get("worker_ready_ms_min")) + "–" + Report.fmt(startup.get("worker_ready_ms_max"))
                    + ") | "
                    + Report.fmt(startup.get("worker_ready_cpu_ms")) + " | "
                    + Report.fmt(startup.get("worker_quarkus_started_ms")) + " | "
                    + Report.fmt(startup.get("worker_idle_rss_mib")) + " |");
            r.line("| API (worker off), idle after its warm-up (WARMUP tasks over HTTP) | "
                    + Report.fmt(startup.get("api_ready_ms")) + " | "
                    + Report.fmt(startup.get("api_ready_cpu_ms")) + " | "
                    + Report.fmt(startup.get("api_quarkus_started_ms")) + " | " + Report.fmt(startup.get("api_rss_mib"))
                    + " |\n");
        }
        if (!memory.isEmpty()) {
            r.line("### Redis memory per finished task\n");
            r.line(String.format(Locale.ROOT, "INFO memory `used_memory` after `MEMORY PURGE` and 1 s to settle: its "
                    + "growth over %,d unique tasks (ids `payment-2026-<n>`, 14 to 18 characters) divided by their number. "
                    + "The reading before them follows one warm-up task (scripts loaded, the queue's own keys made).%n",
                    memory.get(0).tasks()));
            r.line("| system | read when | bytes per task | keys added |");
            r.line("|---|---|---:|---:|");
            for (DedupqCell.Memory m : memory) {
                r.line("| dedupq, result retention " + m.retention().toString().substring(2).toLowerCase(Locale.ROOT) + " | "
                        + (m.afterRetention() ? "after the retention: dedup record only, for the rest of the dedup window"
                                : "every task finished: task hash and dedup record")
                        + " | " + Report.fmt(m.bytesPerTask()) + " | " + m.keysAdded() + " |");
            }
            if (peerMemory != null) {
                r.line("| BullMQ, deduplication option | every job completed and kept (`removeOnComplete` default) | "
                        + Report.fmt(peerMemory.bytesPerJob()) + " | " + peerMemory.keys() + " |");
            }
            r.line("");
            r.line("dedupq: HTTP batches through the API pod, one worker (concurrency 16); a reading after the retention "
                    + "is taken once a SCAN has deleted the expired hashes. The handler's run records (the bench's "
                    + "evidence) are deleted before each reading."
                    + (peerMemory == null ? "" : String.format(Locale.ROOT, " BullMQ: bench/peer/memory.mjs, `addBulk` of "
                    + "1000 jobs per call, a no-op Worker at concurrency 16; its figure includes the queue's event stream, "
                    + "capped at about 10,000 entries whatever the number of jobs: %,d bytes here (`MEMORY USAGE`).",
                    peerMemory.eventStreamBytes())) + "\n");
        }
        if (!ceiling.isEmpty()) {
            r.line("### Redis ceiling (redis-benchmark, the peer's ceiling.sh, one pass)\n");
            r.ceiling(ceiling).line("");
        }
        return r.text();
    }

    /**
     * A section of LPUSH cells at concurrency 16 on a workload without duplicates, the no-op
     * handler on the event loop: its heading, what its cells differ in, and {@code table}.
     */
    private void lpushPair(Report r, String what, String cells, UnaryOperator<Report> table) {
        r.line("### " + what + " (LPUSH, no duplicates in the workload, concurrency 16, the no-op handler on the event "
                + "loop)\n");
        r.line("The same " + settings.jobs() + " unique tasks " + cells + "\n");
        table.apply(r).line("");
    }
}
