package io.dedupq.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** HTTP enqueue throughput with wrk against an API pod, fresh task ids in every request. */
public final class Wrk {

    /** One wrk run: requests/s, tasks/s, latency percentiles (ms), failed requests. */
    public record Result(String label, int connections, int tasksPerRequest, double seconds, double requestsPerSecond,
            double tasksPerSecond, double p50Ms, double p99Ms, long errors, double foreignCpuPct) {
    }

    private final Path scripts;
    private final Path out;

    public Wrk(Path scripts, Path out) {
        this.scripts = scripts;
        this.out = out;
    }

    public static boolean installed() {
        try {
            return new ProcessBuilder("wrk", "--version").start().waitFor() >= 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** {@code batch} tasks per request; 1 uses POST /api/tasks, more POST /api/tasks/batch. */
    public Result run(int port, int connections, int batch, int seconds, String nonce, CpuMeter cpu) {
        Path log = out.resolve("logs").resolve("wrk-" + nonce + ".txt");
        try {
            Files.createDirectories(log.getParent());
            cpu.begin();
            Process wrk = new ProcessBuilder("wrk", "-t2", "-c" + connections, "-d" + seconds + "s", "--latency",
                    "-s", scripts.resolve("enqueue.lua").toString(), "http://127.0.0.1:" + port, "--", nonce,
                    Integer.toString(batch)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            wrk.waitFor();
            CpuMeter.Usage usage = cpu.end();
            String text = Files.readString(log);
            double rps = number(text, "Requests/sec:\\s+([\\d.]+)");
            long requests = (long) number(text, "(\\d+) requests in");
            long errors = (long) number(text, "Non-2xx or 3xx responses:\\s+(\\d+)")
                    + (long) number(text, "Socket errors:.*?timeout (\\d+)");
            // a refused request (503 under overload) answers fast and counts in wrk's rate: tasks/s counts accepted ones only
            double accepted = requests == 0 ? 0 : rps * (requests - errors) / requests;
            return new Result(batch == 1 ? "POST /api/tasks" : "POST /api/tasks/batch (" + batch + " tasks)",
                    connections, batch, seconds, rps, accepted * batch, millis(text, "50%"), millis(text, "99%"), errors,
                    usage.foreignPct());
        } catch (IOException e) {
            throw new IllegalStateException("wrk failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static double number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** A latency line of --latency, "99%    3.21ms", in ms. */
    private static double millis(String text, String percentile) {
        Matcher m = Pattern.compile("\\s" + Pattern.quote(percentile) + "\\s+([\\d.]+)(us|ms|s)").matcher(text);
        if (!m.find()) {
            return Double.NaN;
        }
        double value = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> value / 1000;
            case "s" -> value * 1000;
            default -> value;
        };
    }
}
