package io.dedupq.support;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged dedupq jar running as a separate JVM, as a pod would (prod profile): its own HTTP
 * port, its settings as system properties, its output in a log file. The benchmark and the fault
 * suite start their pods with it. Knows how long it took to answer HTTP, its resident memory,
 * the CPU it has used and the worker id it announced; signals go to its pid only.
 */
public final class AppJvm implements AutoCloseable {

    private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux
    private static final Pattern WORKER_ID = Pattern.compile("worker (\\S+) consuming queues");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String name;
    private final Process process;
    private final int port;
    private final Path log;
    private final String operatorKey;
    private final long startedNanos;
    private final Thread killOnExit;
    private volatile long readyMillis = -1;
    private volatile long readyCpuMillis = -1;
    private volatile String workerId;
    private volatile boolean endedByTest;

    private AppJvm(String name, Process process, int port, Path log, String operatorKey, long startedNanos) {
        this.name = name;
        this.process = process;
        this.port = port;
        this.log = log;
        this.operatorKey = operatorKey;
        this.startedNanos = startedNanos;
        // an interrupted run (Ctrl-C, a failed test) leaves no JVM of ours behind
        this.killOnExit = new Thread(process::destroyForcibly, name + "-kill-on-exit");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /**
     * The packaged jar itself, for a test that needs a JVM (a dev-profile start, a debugger): a native
     * build (-Dnative) has none, so such a test is skipped there.
     */
    public static Path packagedJar() {
        Path jar = Path.of("target", "quarkus-app", "quarkus-run.jar");
        String nativeRunner = System.getProperty("native.image.path", "");
        assumeFalse(!Files.exists(jar) && !nativeRunner.isEmpty() && Files.exists(Path.of(nativeRunner)),
                "a native build (-Dnative) has no JVM jar");
        assertTrue(Files.isRegularFile(jar), jar + " is missing: ./mvnw verify packages it before the integration tests");
        return jar;
    }

    /**
     * The packaged application the tests start: the JVM jar, or, in a native build
     * ({@code -Dnative} builds no JVM jar), the native executable failsafe names in
     * {@code native.image.path}.
     */
    public static Path packaged() {
        Path jar = Path.of("target", "quarkus-app", "quarkus-run.jar");
        String runner = System.getProperty("native.image.path", "");
        return !Files.exists(jar) && !runner.isEmpty() && Files.exists(Path.of(runner)) ? Path.of(runner) : jar;
    }

    /**
     * The command line that starts {@code app} with these system properties: java with
     * {@code jvmOptions} for a jar; the executable itself for a native one (a file not ending in
     * .jar), where HotSpot options do not apply.
     */
    public static List<String> command(Path app, List<String> jvmOptions, Map<String, String> properties) {
        boolean jar = app.toString().endsWith(".jar");
        List<String> command = new ArrayList<>();
        if (jar) {
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmOptions);
        } else {
            command.add(app.toString());
        }
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        if (jar) {
            command.addAll(List.of("-jar", app.toString()));
        }
        return command;
    }

    /**
     * How to start one JVM of {@code jar}, or the native executable at that path;
     * {@link Launch#start()} starts it.
     */
    public static Launch of(Path jar) {
        return new Launch(jar);
    }

    /** The command line and environment of one JVM, before it starts. */
    public static final class Launch {
        private final Path jar;
        private final List<String> jvmOptions = new ArrayList<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private String name = "dedupq";
        private String redisUrl;
        private String operatorKey;
        private Path log;
        private Path directory;
        private final Map<String, String> environment = new LinkedHashMap<>();

        private Launch(Path jar) {
            this.jar = jar.toAbsolutePath();
        }

        /** Names the JVM in messages and in its shutdown hook. */
        public Launch name(String name) {
            this.name = name;
            return this;
        }

        public Launch jvmOptions(String... options) {
            jvmOptions.addAll(List.of(options));
            return this;
        }

        /** Passed as {@code -Dkey=value}. */
        public Launch property(String key, String value) {
            properties.put(key, value);
            return this;
        }

        public Launch properties(Map<String, String> settings) {
            properties.putAll(settings);
            return this;
        }

        /** As {@code REDIS_URL}, which the prod profile reads; without it the JVM has no REDIS_URL at all. */
        public Launch redis(String url) {
            this.redisUrl = url;
            return this;
        }

        /** One more environment variable of the process (LD_PRELOAD, FAKETIME, ...). */
        public Launch environment(String key, String value) {
            environment.put(key, value);
            return this;
        }

        /** The working directory (default: the test's), where the dev profile keeps its Redis data (target/dev-redis). */
        public Launch directory(Path dir) {
            this.directory = dir;
            return this;
        }

        /**
         * Security on with this one key (role operator), which {@link #awaitHttp} sends too.
         * Without it the JVM runs with security off: the prod profile refuses to start with it on
         * and no key.
         */
        public Launch operatorKey(String key) {
            this.operatorKey = key;
            return this;
        }

        /** Where stdout and stderr go (the file is replaced). */
        public Launch log(Path file) {
            this.log = file;
            return this;
        }

        /** Starts the JVM on a free port; it is not ready yet when this returns. */
        public AppJvm start() {
            int port = freePort();
            Map<String, String> all = new LinkedHashMap<>();
            all.put("quarkus.http.port", String.valueOf(port));
            all.putAll(properties);
            List<String> command = command(jar, jvmOptions, all);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            if (redisUrl == null) {
                builder.environment().remove("REDIS_URL");
            } else {
                builder.environment().put("REDIS_URL", redisUrl);
            }
            builder.environment().putAll(environment);
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            if (operatorKey == null) {
                builder.environment().put("DEDUPQ_SECURITY_ENABLED", "false");
            } else {
                builder.environment().put("DEDUPQ_SECURITY_KEYS_TEST_SECRET", operatorKey);
                builder.environment().put("DEDUPQ_SECURITY_KEYS_TEST_ROLES", "operator");
            }
            try {
                Files.createDirectories(log.getParent());
                if (directory != null) {
                    Files.createDirectories(directory);
                }
                long t0 = System.nanoTime();
                return new AppJvm(name, builder.start(), port, log, operatorKey, t0);
            } catch (IOException e) {
                throw new IllegalStateException("cannot start " + name + " from " + jar + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Waits until GET /api/queues answers: with 200 when {@code ok} is asked for (an API pod with
     * its Redis), else with any status (a worker-only pod has no /api). Fails at once when the
     * JVM exits. Sets {@link #readyMillis()}.
     */
    public AppJvm awaitHttp(Duration timeout, boolean ok) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " at start; see " + log);
            }
            Optional<Integer> status = status("/api/queues");
            if (status.isPresent() && (!ok || status.get() == 200)) {
                readyMillis = (System.nanoTime() - startedNanos) / 1_000_000;
                readyCpuMillis = Math.round(cpuSeconds() * 1000);
                return this;
            }
            sleep(10);
        }
        throw new IllegalStateException(name + " did not answer HTTP within " + timeout + "; see " + log);
    }

    /** Waits until the worker has announced its id in the log. */
    public String awaitWorkerId(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (workerId() == null) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " announced no worker id; see " + log);
            }
            sleep(200);
        }
        return workerId;
    }

    /**
     * One request with a JSON body (null: none) to this JVM's HTTP port, with the operator key when
     * it has one; the answer's status and body.
     */
    public HttpResponse<String> send(String method, String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (operatorKey != null) {
            request.header("X-API-Key", operatorKey);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " to " + name + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * As {@link #send}, again with the same body while the answer is 503 (Redis too slow for the
     * guard's timeout on a busy machine), as README tells producers to retry; for up to 30 s.
     */
    public HttpResponse<String> sendUntilAnswered(String method, String path, String json) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        HttpResponse<String> response = send(method, path, json);
        while (response.statusCode() == 503 && System.nanoTime() < deadline) {
            sleep(200);
            response = send(method, path, json);
        }
        return response;
    }

    private Optional<Integer> status(String path) {
        try {
            HttpURLConnection http = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path).toURL()
                    .openConnection();
            http.setConnectTimeout(200);
            http.setReadTimeout(2000);
            if (operatorKey != null) {
                http.setRequestProperty("X-API-Key", operatorKey);
            }
            int status = http.getResponseCode();
            http.disconnect();
            return Optional.of(status);
        } catch (IOException notYet) {
            return Optional.empty();
        }
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** Process start until the HTTP port answered, measured from outside (ms); -1 before {@link #awaitHttp}. */
    public long readyMillis() {
        return readyMillis;
    }

    /**
     * CPU (user + sys, ms) the process had used when {@link #readyMillis()} was taken; -1 before.
     * A loaded host stretches the wall time of a start far more than its CPU.
     */
    public long readyCpuMillis() {
        return readyCpuMillis;
    }

    /** What Quarkus itself reports in "started in N.NNNs" (ms), or -1. */
    public long quarkusStartedMillis() {
        for (String line : logLines()) {
            int at = line.indexOf("started in ");
            if (at >= 0) {
                try {
                    return Math.round(Double.parseDouble(line.substring(at + 11, line.indexOf('s', at + 11))) * 1000);
                } catch (RuntimeException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /** The worker id from the start-up log line (null until then); names its processing lists. */
    public String workerId() {
        if (workerId == null) {
            for (String line : logLines()) {
                Matcher m = WORKER_ID.matcher(line);
                if (m.find()) {
                    workerId = m.group(1);
                    break;
                }
            }
        }
        return workerId;
    }

    /** The log so far; bytes that are not valid UTF-8 are read leniently. */
    public List<String> logLines() {
        try {
            return List.of(new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\n"));
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Resident set size (KiB) from /proc, or -1. */
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

    public static double cpuSecondsOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / (double) TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** True when it exited without the test terminating or killing it: a crash. */
    public boolean crashed() {
        return !process.isAlive() && !endedByTest;
    }

    /** SIGTERM: the graceful path; {@link #awaitExit} waits for it. */
    public void terminate() {
        endedByTest = true;
        process.destroy();
    }

    /** SIGKILL, and wait up to 10 s for the exit. */
    public void kill() {
        endedByTest = true;
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(10));
    }

    /** SIGSTOP: the JVM freezes with its connections open, like a long GC pause. */
    public void pause() {
        signal("STOP");
    }

    public void resume() {
        signal("CONT");
    }

    /** The exit code, or empty when the process is still running after {@code timeout}. */
    public Optional<Integer> awaitExit(Duration timeout) {
        try {
            if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return Optional.of(process.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    /** SIGTERM (graceful shutdown) and wait; SIGKILL if it does not end in 60 s. */
    @Override
    public void close() {
        terminate();
        if (awaitExit(Duration.ofSeconds(60)).isEmpty()) {
            kill();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook runs anyway, on a process that has ended
        }
    }

    private void signal(String signal) {
        if (!process.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("cannot send SIG" + signal + " to " + name + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A port nothing listens on now (for the JVM's HTTP port, or a debugger's). */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    /** Thread.sleep for polling loops: an interrupt ends the wait with an exception. */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + ", worker " + workerId + ")";
    }
}
