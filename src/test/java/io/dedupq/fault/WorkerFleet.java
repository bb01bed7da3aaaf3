package io.dedupq.fault;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Starts JVMs of the packaged application ({@code java -jar target/quarkus-app/quarkus-run.jar},
 * prod profile) against the test's Redis, each on its own HTTP port with its log under
 * {@code target/fault/}, and keeps track of them. Every process it started is stopped by pid
 * in {@link #destroyAll()}, also when the test JVM itself is shut down.
 */
final class WorkerFleet implements AutoCloseable {

    static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");

    /** The operator key every JVM is started with (prod profile: security is on), sent as X-API-Key. */
    static final String API_KEY = "fault-suite-operator-key";
    static final Duration LOCK_TTL = Duration.ofSeconds(2);
    static final Duration HEARTBEAT_EXPIRY = Duration.ofSeconds(3);
    static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(5);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final String redisUrl;
    private final Path logs;
    private final List<WorkerJvm> started = new ArrayList<>();
    private final Set<WorkerJvm> reserved = new HashSet<>();
    private final Thread cleanupOnExit = new Thread(this::destroyAll, "fault-suite-cleanup");
    private int counter;

    WorkerFleet(String redisUrl, Path logs) throws IOException {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing: the fault suite runs against the packaged app ("
                    + "./mvnw verify packages it before the integration tests)");
        }
        this.redisUrl = redisUrl;
        this.logs = Files.createDirectories(logs);
        Runtime.getRuntime().addShutdownHook(cleanupOnExit);
    }

    /** The pod that serves /api (and runs workers too). */
    WorkerJvm startApiPod() {
        WorkerJvm pod = launch("api", true);
        pod.awaitReady(START_TIMEOUT);
        return pod;
    }

    /** A worker-only pod (/api answers 404 there), not yet ready when this returns. */
    WorkerJvm launchWorker() {
        return launch("worker-" + nextNumber(), false);
    }

    WorkerJvm startWorker() {
        WorkerJvm worker = launchWorker();
        worker.awaitReady(START_TIMEOUT);
        return worker;
    }

    private synchronized int nextNumber() {
        return ++counter;
    }

    private WorkerJvm launch(String name, boolean api) {
        int port = freePort();
        Path log = logs.resolve(name + ".log");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                // C1 only and one GC thread: 8 JVMs start and run on 2 cores in this test
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dquarkus.http.port=" + port,
                "-Ddedupq.api.enabled=" + api,
                "-Ddedupq.worker.id=" + name,
                "-Ddedupq.worker.heartbeat-interval=500ms",
                "-Ddedupq.worker.heartbeat-expiry=" + HEARTBEAT_EXPIRY.toMillis() + "ms",
                "-Ddedupq.worker.reaper-interval=500ms",
                "-Ddedupq.worker.promote-interval=200ms",
                "-Ddedupq.worker.shutdown-grace=" + SHUTDOWN_GRACE.toMillis() + "ms",
                "-Ddedupq.queues.payment.lock-ttl=" + LOCK_TTL.toMillis() + "ms",
                "-Ddedupq.queues.voucher.lock-ttl=" + LOCK_TTL.toMillis() + "ms",
                "-Ddedupq.queues.payment.backoff-base=200ms",
                "-Ddedupq.queues.voucher.backoff-base=200ms",
                "-Dquarkus.log.console.color=false",
                "-jar", JAR.toString());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("REDIS_URL", redisUrl);
        builder.environment().put("DEDUPQ_SECURITY_KEYS_FAULT_SECRET", API_KEY);
        builder.environment().put("DEDUPQ_SECURITY_KEYS_FAULT_ROLES", "operator");
        try {
            WorkerJvm jvm = new WorkerJvm(name, port, api, builder.start(), log);
            synchronized (this) {
                started.add(jvm);
            }
            return jvm;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    /** Live worker-only pods that no fault step has reserved. */
    synchronized List<WorkerJvm> available() {
        return started.stream().filter(w -> !w.api() && w.alive() && w.workerId() != null && !reserved.contains(w))
                .toList();
    }

    /** A random available worker, reserved for the caller until {@link #release}. */
    synchronized Optional<WorkerJvm> reserveRandom() {
        List<WorkerJvm> candidates = available();
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        WorkerJvm chosen = candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
        reserved.add(chosen);
        return Optional.of(chosen);
    }

    synchronized boolean reserve(WorkerJvm worker) {
        return worker.alive() && reserved.add(worker);
    }

    synchronized void release(WorkerJvm worker) {
        reserved.remove(worker);
    }

    /** Every JVM started in this run, dead or alive (their logs hold the recovery figures). */
    synchronized List<WorkerJvm> all() {
        return List.copyOf(started);
    }

    /** Stops every JVM this fleet started, by pid (SIGCONT first, so a paused one can die). */
    synchronized void destroyAll() {
        for (WorkerJvm jvm : started) {
            if (jvm.alive()) {
                jvm.kill();
            }
        }
    }

    @Override
    public void close() {
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanupOnExit);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook runs anyway
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }
}
