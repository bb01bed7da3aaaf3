package io.dedupq.bench;

import io.dedupq.support.AppJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Knobs of one benchmark run (environment variables of bench/run.sh, README lists them).
 *
 * @param jar       the measured application, bench/app packaged: {@link #BENCH_APP} (its dedup-off and sql
 *                  builds lie next to it, {@link #dedupOffJar}, {@link #sqlJar})
 * @param redisUrl  the private redis-server every part of the run uses
 * @param appProps  extra system properties for every dedupq JVM (e.g. dedupq.security.enabled=false)
 * @param jvmOptions options of every dedupq JVM (bench/run.sh gives those of docker/Dockerfile.jvm inside
 *                  the pods' memory limit, so the numbers are those of the shipped image as deployed)
 * @param out       folder for raw results and logs
 */
public record BenchSettings(Path jar, String redisUrl, int jobs, double dupRatio, int seed, int chunk, int probes,
        int warmup, int timeoutSeconds, Map<String, String> appProps, List<String> jvmOptions, Path out) {

    /** bench/app as the main build's invoker packages it. */
    public static final Path BENCH_APP = Path.of("target", "it", "bench", "app", "target", "quarkus-app", "quarkus-run.jar");

    /** Parses "k=v,k=v" (the BENCH_APP_PROPS variable). */
    public static Map<String, String> props(String text) {
        Map<String, String> props = new LinkedHashMap<>();
        if (text != null) {
            for (String pair : text.split(",")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    props.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
                }
            }
        }
        return props;
    }

    /**
     * Starts one dedupq JVM of {@link #jar} on {@link #redisUrl}, security off, with {@code props}
     * and then {@link #appProps}, its log in {@code <out>/logs/<name>.log}; returns once its HTTP
     * port answers.
     */
    public AppJvm startApp(String name, Map<String, String> props) {
        return AppJvm.of(jar).name(name).jvmOptions(jvmOptions.toArray(String[]::new)).redis(redisUrl).properties(props)
                .properties(appProps)
                .log(out.resolve("logs").resolve(name + ".log")).start().awaitHttp(Duration.ofSeconds(120), false);
    }

    /** bench/app built with -Pdedup-off (claim.lua without the done check and the lock): {@code <target>/dedup-off/quarkus-app}. */
    public Path dedupOffJar() {
        return variantJar("dedup-off");
    }

    /** bench/app built with -Psql (RowHandler writes a row to PostgreSQL per task): {@code <target>/sql/quarkus-app}. */
    public Path sqlJar() {
        return variantJar("sql");
    }

    private Path variantJar(String profile) {
        Path target = jar.toAbsolutePath().getParent().getParent();
        return target.resolve(profile).resolve("quarkus-app").resolve("quarkus-run.jar");
    }

    /** The same run on another build of the application. */
    public BenchSettings withJar(Path newJar) {
        return new BenchSettings(newJar, redisUrl, jobs, dupRatio, seed, chunk, probes, warmup, timeoutSeconds, appProps,
                jvmOptions, out);
    }

    /** The same run with a workload of another duplicate ratio (0: every id once). */
    public BenchSettings withDupRatio(double newDupRatio) {
        return new BenchSettings(jar, redisUrl, jobs, newDupRatio, seed, chunk, probes, warmup, timeoutSeconds, appProps,
                jvmOptions, out);
    }

    public BenchSettings withJobs(int newJobs, int newProbes, int newWarmup) {
        return new BenchSettings(jar, redisUrl, newJobs, dupRatio, seed, chunk, newProbes, newWarmup, timeoutSeconds,
                appProps, jvmOptions, out);
    }
}
