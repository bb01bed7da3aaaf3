package io.dedupq.fault;

import io.dedupq.support.AppJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * Starts JVMs of a packaged application (the service, {@code target/quarkus-app/quarkus-run.jar},
 * unless told another: the example shop, for one) in its prod profile against the test's Redis,
 * each on its own HTTP port with its log under the test's folder, and keeps track of them. Every process it started is stopped by pid
 * in {@link #destroyAll()} (and by its own shutdown hook when the test JVM is shut down).
 */
final class WorkerFleet implements AutoCloseable {

    static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");

    /** The operator key every JVM is started with (prod profile: security is on), sent as X-API-Key. */
    static final String API_KEY = "fault-suite-operator-key";
    static final Duration LOCK_TTL = Duration.ofSeconds(2);
    static final Duration HEARTBEAT_EXPIRY = Duration.ofSeconds(3);
    static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(5);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path jar;
    private final String redisUrl;
    private final Path logs;
    private final Function<String, Map<String, String>> settings;
    private final Map<String, String> environment;
    private final List<AppJvm> started = new ArrayList<>();
    private final Set<AppJvm> reserved = new HashSet<>();
    private final Set<AppJvm> apiPods = new HashSet<>();
    private int counter;

    /** The service's JVMs, with the lock TTL and backoff of its payment and voucher queues shortened. */
    WorkerFleet(String redisUrl, Path logs) throws IOException {
        this(JAR, redisUrl, logs, pod -> queueSettings(List.of("payment", "voucher")), Map.of());
    }

    /**
     * JVMs of {@code jar}, each with {@code settings} of its pod name as more system properties
     * and {@code environment} in its process environment.
     */
    WorkerFleet(Path jar, String redisUrl, Path logs, Function<String, Map<String, String>> settings,
            Map<String, String> environment) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: the fault tests run against packaged apps ("
                    + "./mvnw verify packages them before the integration tests)");
        }
        this.jar = jar;
        this.redisUrl = redisUrl;
        this.logs = Files.createDirectories(logs);
        this.settings = settings;
        this.environment = Map.copyOf(environment);
    }

    /** The lock TTL and retry backoff of these queues, shortened so that the faults heal quickly. */
    static Map<String, String> queueSettings(List<String> queues) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String queue : queues) {
            properties.put("dedupq.queues." + queue + ".lock-ttl", LOCK_TTL.toMillis() + "ms");
            properties.put("dedupq.queues." + queue + ".backoff-base", "200ms");
        }
        return properties;
    }

    /** A pod that serves /api (and runs workers too). */
    AppJvm startApiPod() {
        AppJvm pod;
        synchronized (this) {
            pod = launch(apiPods.isEmpty() ? "api" : "api-" + (apiPods.size() + 1), true, Map.of(), Map.of());
            apiPods.add(pod);
        }
        awaitReady(pod);
        return pod;
    }

    /**
     * A pod that serves /api and runs no worker ({@code dedupq.worker.enabled=false}): it answers
     * for every queue it is configured with and takes none of their tasks, once ready.
     */
    AppJvm startApiOnlyPod() {
        AppJvm pod;
        synchronized (this) {
            pod = launch("api-only", true, Map.of(), Map.of("dedupq.worker.enabled", "false"));
            apiPods.add(pod);
        }
        pod.awaitHttp(START_TIMEOUT, true);
        return pod;
    }

    /** A worker-only pod (/api answers 404 there), not yet ready when this returns. */
    AppJvm launchWorker() {
        return launchWorker(Map.of());
    }

    /** A worker-only pod whose process gets {@code environment} too (a shifted clock, for one), not yet ready. */
    AppJvm launchWorker(Map<String, String> environment) {
        return launch("worker-" + nextNumber(), false, environment, Map.of());
    }

    AppJvm startWorker() {
        AppJvm worker = launchWorker();
        awaitReady(worker);
        return worker;
    }

    /**
     * Until its HTTP port answers (the api pod with 200 on /api/queues, a worker pod with
     * anything) and its worker has announced its id.
     */
    void awaitReady(AppJvm jvm) {
        jvm.awaitHttp(START_TIMEOUT, isApiPod(jvm));
        jvm.awaitWorkerId(START_TIMEOUT);
    }

    private synchronized boolean isApiPod(AppJvm jvm) {
        return apiPods.contains(jvm);
    }

    private synchronized int nextNumber() {
        return ++counter;
    }

    private AppJvm launch(String name, boolean api, Map<String, String> podEnvironment, Map<String, String> podProperties) {
        AppJvm.Launch launch = AppJvm.of(jar);
        this.environment.forEach(launch::environment);
        podEnvironment.forEach(launch::environment);
        AppJvm jvm = launch.name(name).log(logs.resolve(name + ".log")).redis(redisUrl).operatorKey(API_KEY)
                // C1 only and one GC thread: 8 JVMs start and run on 2 cores in this test
                .jvmOptions("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
                .property("dedupq.api.enabled", Boolean.toString(api))
                .property("dedupq.worker.id", name)
                .property("dedupq.worker.heartbeat-interval", "500ms")
                .property("dedupq.worker.heartbeat-expiry", HEARTBEAT_EXPIRY.toMillis() + "ms")
                .property("dedupq.worker.reaper-interval", "500ms")
                .property("dedupq.worker.promote-interval", "200ms")
                .property("dedupq.worker.shutdown-grace", SHUTDOWN_GRACE.toMillis() + "ms")
                .properties(settings.apply(name))
                .properties(podProperties)
                .property("quarkus.log.console.color", "false")
                .start();
        synchronized (this) {
            started.add(jvm);
        }
        return jvm;
    }

    /** Live worker-only pods that no fault step has reserved. */
    synchronized List<AppJvm> available() {
        return started.stream().filter(w -> !apiPods.contains(w) && w.alive() && w.workerId() != null && !reserved.contains(w))
                .toList();
    }

    /** A random available worker, reserved for the caller until {@link #release}. */
    synchronized Optional<AppJvm> reserveRandom() {
        List<AppJvm> candidates = available();
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        AppJvm chosen = candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
        reserved.add(chosen);
        return Optional.of(chosen);
    }

    synchronized boolean reserve(AppJvm worker) {
        return worker.alive() && reserved.add(worker);
    }

    synchronized void release(AppJvm worker) {
        reserved.remove(worker);
    }

    /** A line for each JVM that ended without being told to (a crash, an exit of its own). */
    synchronized List<String> crashes() {
        return started.stream().filter(AppJvm::crashed).map(j -> j + " exited by itself; see " + j.log()).toList();
    }

    /** Every JVM started in this run, dead or alive (their logs hold the recovery figures). */
    synchronized List<AppJvm> all() {
        return List.copyOf(started);
    }

    /** Stops every JVM this fleet started, by pid (SIGKILL ends a paused one too). */
    synchronized void destroyAll() {
        for (AppJvm jvm : started) {
            if (jvm.alive()) {
                jvm.kill();
            }
        }
    }

    @Override
    public void close() {
        destroyAll();
    }
}
