package io.dedupq.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** Markdown tables of one benchmark run; cells are median (min–max) over the repeats. */
public final class Report {

    private final StringBuilder md = new StringBuilder();
    private final Map<String, List<CellResult>> cells = new LinkedHashMap<>();

    public Report(List<CellResult> results) {
        for (CellResult r : results) {
            cells.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        }
    }

    public Report line(String text) {
        md.append(text).append('\n');
        return this;
    }

    public String text() {
        return md.toString();
    }

    /** The main matrix or the overlap variant: every cell of dedupq and BullMQ. */
    public Report matrix(boolean overlap) {
        line("| system | variant | conc | n | enqueue tasks/s | processing tasks/s | wait p50 ms | wait p99 ms "
                + "| idle pickup p50 ms | p99 ms | dups refused at enqueue | dups dropped by worker | executions "
                + "| ids run >1× | ids never run |" + (overlap ? " dups sent after 1st copy finished |" : "")
                + " app CPU % | redis CPU % | foreign CPU % |");
        line("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + (overlap ? "---:|" : "")
                + "---:|---:|---:|");
        for (List<CellResult> g : sorted(overlap, 1)) {
            CellResult r = g.get(0);
            line("| " + r.impl() + " | " + variantLabel(r) + " | " + r.concurrency() + " | " + g.size() + " | "
                    + cell(g, CellResult::enqueueRate) + " | " + cell(g, CellResult::processingRate) + " | "
                    + cell(g, CellResult::waitP50) + " | " + cell(g, CellResult::waitP99) + " | "
                    + cell(g, CellResult::idlePickupP50) + " | " + cell(g, CellResult::idlePickupP99) + " | "
                    + sum(g, CellResult::refusedAtEnqueue) + " | " + sum(g, CellResult::droppedByWorker) + " | "
                    + sum(g, CellResult::executions) + " | " + runTwice(g) + " | " + sum(g, CellResult::idsMissing)
                    + " | " + (overlap ? (r.impl().equals("dedupq") ? sum(g, CellResult::dupsAfterDone) : "–") + " | " : "")
                    + cell(g, CellResult::appCpuPct) + " | " + cell(g, CellResult::redisCpuPct) + " | "
                    + cell(g, CellResult::foreignCpuPct) + " |" + (g.stream().anyMatch(CellResult::timedOut) ? " ⚠ timed out" : ""));
        }
        return this;
    }

    /** dedupq / BullMQ for every cell that both ran: processing and enqueue rate. */
    public Report ratios(boolean overlap) {
        List<String> peers = cells.values().stream().map(g -> g.get(0))
                .filter(r -> r.impl().equals("bullmq") && r.overlap() == overlap).map(CellResult::variant).distinct()
                .toList();
        if (peers.isEmpty()) {
            return line("(no BullMQ cells in this run)");
        }
        StringBuilder head = new StringBuilder("| dedupq variant | conc |");
        StringBuilder rule = new StringBuilder("|---|---:|");
        for (String peer : peers) {
            head.append(" processing ÷ ").append(peer).append(" | enqueue ÷ ").append(peer).append(" |");
            rule.append("---:|---:|");
        }
        line(head.toString());
        line(rule.toString());
        for (List<CellResult> g : sorted(overlap, 1)) {
            CellResult r = g.get(0);
            if (!r.impl().equals("dedupq")) {
                continue;
            }
            StringBuilder row = new StringBuilder("| " + variantLabel(r) + " | " + r.concurrency() + " |");
            for (String peer : peers) {
                List<CellResult> p = cells.get("bullmq|" + peer + "|" + r.concurrency() + "|1|" + overlap);
                row.append(' ').append(ratio(g, p, CellResult::processingRate)).append(" | ")
                        .append(ratio(g, p, CellResult::enqueueRate)).append(" |");
            }
            line(row.toString());
        }
        return this;
    }

    /** 1, 2, 4 worker processes on one Redis. */
    public Report scaling() {
        line("| worker processes | conc each | n | processing tasks/s | drain tasks/s | executions | ids run >1× "
                + "| ids never run | dups dropped by workers | workers CPU % | redis CPU % | foreign CPU % |");
        line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        cells.values().stream().filter(g -> g.get(0).section().equals("scaling"))
                .sorted((a, b) -> Integer.compare(a.get(0).workers(), b.get(0).workers())).forEach(g -> line(
                        "| " + g.get(0).workers() + " | " + g.get(0).concurrency() + " | " + g.size() + " | "
                                + cell(g, CellResult::processingRate) + " | "
                                + cell(g, r -> r.extra().getOrDefault("drain_rate", Double.NaN)) + " | "
                                + sum(g, CellResult::executions) + " | " + sum(g, CellResult::idsRunTwice) + " | "
                                + sum(g, CellResult::idsMissing) + " | " + sum(g, CellResult::droppedByWorker) + " | "
                                + cell(g, CellResult::appCpuPct) + " | " + cell(g, CellResult::redisCpuPct) + " | "
                                + cell(g, CellResult::foreignCpuPct) + " |"));
        return this;
    }

    /** The same LPUSH cell, on a workload without duplicates, with deduplication on and off in claim.lua. */
    public Report dedupOff() {
        List<List<CellResult>> pair = variants("dedupoff", "claim.lua",
                r -> DedupqCell.dedupOff(r) ? "dedup off (no done check, no lock)" : "dedup on");
        if (pair.size() == 2) {
            line("");
            line("dedup on ÷ dedup off, processing rate (median): " + ratio(pair.get(0), pair.get(1),
                    CellResult::processingRate));
        }
        return this;
    }

    /** The same LPUSH cell, on a workload without duplicates, without the queue's controls and with each one. */
    public Report controls() {
        List<List<CellResult>> cellsOf = variants("controls", "queue's controls", Report::controlLabel);
        if (!cellsOf.isEmpty() && controlLabel(cellsOf.get(0).get(0)).equals("none")) {
            line("");
            for (List<CellResult> g : cellsOf.subList(1, cellsOf.size())) {
                line("- " + controlLabel(g.get(0)) + " ÷ none, processing rate (median): "
                        + ratio(g, cellsOf.get(0), CellResult::processingRate) + "; Redis µs per task: "
                        + ratio(g, cellsOf.get(0), CellResult::redisUsecPerTask));
            }
        }
        return this;
    }

    /** The same LPUSH cell, on a workload without duplicates, beside a replica: without and with WAIT 1 after each call. */
    public Report replicas() {
        List<List<CellResult>> pair = variants("replicas", "dedupq.durability.replicas",
                r -> r.variant().endsWith("-replicas-1") ? "1 (each claim.lua call followed by WAIT 1)" : "0 (no WAIT)");
        if (pair.size() == 2) {
            line("");
            line("replicas 1 ÷ replicas 0, processing rate (median): " + ratio(pair.get(1), pair.get(0),
                    CellResult::processingRate));
        }
        return this;
    }

    private static String controlLabel(CellResult r) {
        return switch (r.variant()) {
            case "lpush" -> "none";
            case "lpush-rate" -> "rate-limit 1000000/1s (never reached)";
            case "lpush-groups" -> "group-concurrency 1, 1000 groups";
            default -> r.variant();
        };
    }

    /**
     * One row per cell of {@code section} in the order they ran, labelled by {@code label} in a
     * first column named {@code what}: rate, evidence of single execution, Redis and CPU cost.
     * Returns the cells' groups in that order.
     */
    private List<List<CellResult>> variants(String section, String what, Function<CellResult, String> label) {
        line("| " + what + " | conc | n | processing tasks/s | executions | ids run >1× | Redis µs per task (commandstats, "
                + "each script once) | Redis CPU µs per task (process) | EVALSHA calls per task | app CPU % | redis CPU % "
                + "| foreign CPU % |");
        line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        List<List<CellResult>> ran = cells.values().stream().filter(g -> g.get(0).section().equals(section)).toList();
        for (List<CellResult> g : ran) {
            CellResult r = g.get(0);
            line("| " + label.apply(r) + " | " + r.concurrency() + " | " + g.size() + " | "
                    + cell(g, CellResult::processingRate) + " | " + sum(g, CellResult::executions) + " | "
                    + sum(g, CellResult::idsRunTwice) + " | " + cell(g, CellResult::redisUsecPerTask) + " | "
                    + cell(g, Report::redisCpuUsPerTask) + " | "
                    + cell(g, x -> x.extra().getOrDefault("evalsha_per_task", Double.NaN)) + " | "
                    + cell(g, CellResult::appCpuPct) + " | " + cell(g, CellResult::redisCpuPct) + " | "
                    + cell(g, CellResult::foreignCpuPct) + " |");
        }
        return ran;
    }

    /**
     * The sql pair: one PostgreSQL row per task, written in a plain transaction and through
     * FencedWrites. Worker CPU per task is the worker JVM's only; PostgreSQL's is in foreign CPU.
     */
    public Report sql() {
        line("| handler's write | conc | n | processing tasks/s | µs per task (1 / rate) | worker CPU µs per task "
                + "| rows written / unique tasks | executions | ids run >1× | app CPU % | redis CPU % | foreign CPU % |");
        line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        List<List<CellResult>> pair = cells.values().stream().filter(g -> g.get(0).section().equals("sql"))
                .sorted((a, b) -> Boolean.compare(fenced(a.get(0)), fenced(b.get(0)))).toList();
        for (List<CellResult> g : pair) {
            CellResult r = g.get(0);
            line("| " + (fenced(r) ? "FencedWrites.run (claim, write, record)" : "plain transaction, no fencing") + " | "
                    + r.concurrency() + " | " + g.size() + " | " + cell(g, CellResult::processingRate) + " | "
                    + cell(g, x -> 1e6 / x.processingRate()) + " | "
                    + cell(g, x -> x.appCpuPct() * 1e4 / x.processingRate()) + " | "
                    + cell(g, x -> x.extra().getOrDefault("sql_rows", Double.NaN)) + " / " + r.unique() + " | "
                    + sum(g, CellResult::executions) + " | " + sum(g, CellResult::idsRunTwice) + " | "
                    + cell(g, CellResult::appCpuPct) + " | " + cell(g, CellResult::redisCpuPct) + " | "
                    + cell(g, CellResult::foreignCpuPct) + " |");
        }
        if (pair.size() == 2) {
            line("");
            line("fenced ÷ plain, processing rate (median): " + ratio(pair.get(1), pair.get(0), CellResult::processingRate));
        }
        return this;
    }

    private static boolean fenced(CellResult r) {
        return r.variant().endsWith("-sql-fenced");
    }

    /** Redis time per task in the commands that exist only for deduplication (from INFO commandstats). */
    public Report dedupOverhead() {
        line("| variant | conc | n | EVALSHA calls per task | Redis µs per task (commandstats, each script once) "
                + "| Redis CPU µs per task (process) | µs in dedup-only commands | share | dedupq processing tasks/s |");
        line("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (List<CellResult> g : sorted(false, 1)) {
            CellResult r = g.get(0);
            if (!r.impl().equals("dedupq") || r.redisUsecPerTask() < 0) {
                continue;
            }
            line("| " + variantLabel(r) + " | " + r.concurrency() + " | " + g.size() + " | "
                    + cell(g, x -> x.extra().getOrDefault("evalsha_per_task", Double.NaN)) + " | "
                    + cell(g, CellResult::redisUsecPerTask) + " | " + cell(g, Report::redisCpuUsPerTask) + " | "
                    + cell(g, CellResult::dedupRedisUsecPerTask) + " | "
                    + cell(g, x -> 100 * x.dedupRedisUsecPerTask() / x.redisUsecPerTask()) + " % | "
                    + cell(g, CellResult::processingRate) + " |");
        }
        return this;
    }

    /** The Redis server's CPU time over the cell's processing, per unique task (µs). */
    private static double redisCpuUsPerTask(CellResult r) {
        return r.extra().getOrDefault("redis_cpu_us_per_task", Double.NaN);
    }

    /** {@code peer}: BullMQ's add/addBulk rate for each run, in the same order, or empty. */
    public Report wrk(List<Wrk.Result> runs, List<Bullmq.AddRate> peer) {
        line("| request | connections | seconds | requests/s | tasks/s | p50 ms | p99 ms | non-2xx / timeouts | foreign CPU % "
                + "| BullMQ jobs/s | dedupq ÷ BullMQ |");
        line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int i = 0; i < runs.size(); i++) {
            Wrk.Result r = runs.get(i);
            Bullmq.AddRate add = i < peer.size() ? peer.get(i) : null;
            line("| " + r.label() + " | " + r.connections() + " | " + fmt(r.seconds()) + " | " + fmt(r.requestsPerSecond())
                    + " | " + fmt(r.tasksPerSecond()) + " | " + fmt(r.p50Ms()) + " | " + fmt(r.p99Ms()) + " | "
                    + r.errors() + " | " + fmt(r.foreignCpuPct()) + " | "
                    + (add == null ? "–" : fmt(add.jobsPerSecond()) + " (" + (add.batch() == 1 ? "add" : "addBulk") + ")")
                    + " | " + (add == null ? "–" : ratio(r.tasksPerSecond() / add.jobsPerSecond())) + " |");
        }
        return this;
    }

    public Report ceiling(List<Ceiling.Row> rows) {
        line("| command | -P | ops/s | p50 ms |");
        line("|---|---:|---:|---:|");
        for (Ceiling.Row r : rows) {
            line("| " + r.test() + " | " + r.pipeline() + " | " + fmt(r.opsPerSecond()) + " | " + fmt(r.p50Ms()) + " |");
        }
        return this;
    }

    private List<List<CellResult>> sorted(boolean overlap, int workers) {
        return cells.values().stream().filter(g -> g.get(0).overlap() == overlap && g.get(0).workers() == workers
                && g.get(0).section().isEmpty())
                .sorted((a, b) -> {
                    CellResult x = a.get(0);
                    CellResult y = b.get(0);
                    int c = Integer.compare(x.concurrency(), y.concurrency());
                    return c != 0 ? c : (x.impl() + x.variant()).compareTo(y.impl() + y.variant());
                }).toList();
    }

    private static String variantLabel(CellResult r) {
        return switch (r.variant()) {
            case "http" -> "POST /api/tasks/batch";
            case "lpush" -> "LPUSH envelopes";
            case "http-threads" -> "POST /api/tasks/batch, handler threads";
            case "lpush-threads" -> "LPUSH envelopes, handler threads";
            default -> r.variant();
        };
    }

    private static String runTwice(List<CellResult> g) {
        String n = sum(g, CellResult::idsRunTwice);
        return g.get(0).variant().equals("plain") ? n + " (no dedup)" : n;
    }

    private static String sum(List<CellResult> g, ToDoubleFunction<CellResult> f) {
        return fmt(g.stream().mapToDouble(f).sum());
    }

    static String cell(List<CellResult> g, ToDoubleFunction<CellResult> f) {
        double[] v = g.stream().mapToDouble(f).filter(Double::isFinite).sorted().toArray();
        if (v.length == 0) {
            return "–";
        }
        if (v.length == 1) {
            return fmt(v[0]);
        }
        return fmt(median(v)) + " (" + fmt(v[0]) + "–" + fmt(v[v.length - 1]) + ")";
    }

    private static String ratio(List<CellResult> mine, List<CellResult> peer, ToDoubleFunction<CellResult> f) {
        if (peer == null) {
            return "–";
        }
        double a = median(mine.stream().mapToDouble(f).filter(Double::isFinite).sorted().toArray());
        double b = median(peer.stream().mapToDouble(f).filter(Double::isFinite).sorted().toArray());
        return ratio(a / b);
    }

    private static String ratio(double r) {
        return Double.isFinite(r) ? String.format(Locale.ROOT, "%.2f", r) : "–";
    }

    static double median(double[] sorted) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    }

    static String fmt(double x) {
        if (!Double.isFinite(x)) {
            return "–";
        }
        if (Math.abs(x) >= 100) {
            return Long.toString(Math.round(x));
        }
        return String.format(Locale.ROOT, "%.2f", x).replaceAll("\\.?0+$", "");
    }
}
