package io.dedupq.bench;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged dedupq jar running as a separate JVM (as a pod would), with its settings passed
 * as system properties and its output in a log file. Knows how long it took to answer HTTP,
 * its resident memory and the CPU it has used.
 */
public final class AppProcess implements AutoCloseable {

    private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private final Process process;
    private final int port;
    private final Path log;
    private final long readyMillis;

    private AppProcess(Process process, int port, Path log, long readyMillis) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.readyMillis = readyMillis;
    }

    /** Starts the jar and waits until its HTTP port answers (any status: a worker pod has no /api). */
    public static AppProcess start(Path jar, String redisUrl, Map<String, String> settings, Path log) {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-Dquarkus.http.port=" + port));
        settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-jar", jar.toString()));
        try {
            Files.createDirectories(log.getParent());
            long t0 = System.nanoTime();
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().put("REDIS_URL", redisUrl);
            // prod profile: API keys are required unless switched off; the benchmark measures the queue, not auth
            builder.environment().put("DEDUPQ_SECURITY_ENABLED", "false");
            Process process = builder.start();
            // an interrupted benchmark (Ctrl-C, SIGTERM) leaves no JVM of ours behind
            Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
            awaitHttp(process, port, log);
            return new AppProcess(process, port, log, (System.nanoTime() - t0) / 1_000_000);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + jar + ": " + e.getMessage(), e);
        }
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** Process start until the HTTP port answered, measured from outside (ms). */
    public long readyMillis() {
        return readyMillis;
    }

    /** What Quarkus itself reports in "started in N.NNNs" (ms), or -1. */
    public long quarkusStartedMillis() {
        try {
            for (String line : Files.readAllLines(log)) {
                int at = line.indexOf("started in ");
                if (at >= 0) {
                    String seconds = line.substring(at + 11, line.indexOf('s', at + 11));
                    return Math.round(Double.parseDouble(seconds) * 1000);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Resident set size (KiB) from /proc. */
    public long rssKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    /** CPU seconds (user + sys) this process has used, from /proc; 0 once it has exited. */
    public double cpuSeconds() {
        return cpuSecondsOf(pid());
    }

    static double cpuSecondsOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / (double) TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** SIGTERM (graceful shutdown) and wait; SIGKILL if it does not end in 60 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitHttp(Process process, int port, Path log) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("dedupq exited at start; see " + log);
            }
            try {
                HttpURLConnection http = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/api/queues")
                        .toURL().openConnection();
                http.setConnectTimeout(200);
                http.setReadTimeout(2000);
                http.getResponseCode();
                http.disconnect();
                return;
            } catch (IOException notYet) {
                sleep(10);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("dedupq did not answer HTTP within 120 s; see " + log);
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
