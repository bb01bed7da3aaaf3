package io.dedupq.fault;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One running JVM of the packaged application, started by {@link WorkerFleet}: its pid, HTTP
 * port, log file and the worker id it announced. Signals go to its pid only.
 */
final class WorkerJvm {

    private static final Pattern WORKER_ID = Pattern.compile("worker (\\S+) consuming queues");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final String name;
    private final int port;
    private final boolean api;
    private final Process process;
    private final Path log;
    private volatile String workerId;
    private volatile boolean endedByTest;

    WorkerJvm(String name, int port, boolean api, Process process, Path log) {
        this.name = name;
        this.port = port;
        this.api = api;
        this.process = process;
        this.log = log;
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    boolean api() {
        return api;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The worker id from the start-up log line (null until then); names its processing lists. */
    String workerId() {
        if (workerId == null) {
            workerId = announcedWorkerId().orElse(null);
        }
        return workerId;
    }

    /** True when it exited without the test killing or terminating it: a crash. */
    boolean crashed() {
        return !process.isAlive() && !endedByTest;
    }

    /**
     * Waits until the HTTP port answers (the api pod with 200 on /api/queues, a worker pod with
     * anything) and the worker has announced its id.
     */
    void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " at start; see " + log);
            }
            if (workerId() != null && answers()) {
                return;
            }
            sleep(200);
        }
        throw new IllegalStateException(name + " not ready within " + timeout + "; see " + log);
    }

    private boolean answers() {
        try {
            HttpResponse<Void> reply = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/api/queues")).header("X-API-Key", WorkerFleet.API_KEY).timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.discarding());
            return !api || reply.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Optional<String> announcedWorkerId() {
        for (String line : logLines()) {
            Matcher m = WORKER_ID.matcher(line);
            if (m.find()) {
                return Optional.of(m.group(1));
            }
        }
        return Optional.empty();
    }

    /** The log so far; lines that are not valid UTF-8 are read leniently. */
    List<String> logLines() {
        try {
            return List.of(new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\n"));
        } catch (IOException e) {
            return List.of();
        }
    }

    void kill() {
        endedByTest = true;
        resume();
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(10));
    }

    /** SIGTERM: the graceful path. */
    void terminate() {
        endedByTest = true;
        signal("TERM");
    }

    /** SIGSTOP: the JVM freezes with its connections open, like a long GC pause. */
    void pause() {
        signal("STOP");
    }

    void resume() {
        signal("CONT");
    }

    /** The exit code, or empty when the process is still running after {@code timeout}. */
    Optional<Integer> awaitExit(Duration timeout) {
        try {
            if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return Optional.of(process.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
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

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + ", worker " + workerId + ")";
    }
}
