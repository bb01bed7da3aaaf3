package io.dedupq.fault;

import io.dedupq.config.RedisProcess;
import io.dedupq.support.AppJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The long soak (bench/soak.sh; not part of ./mvnw verify): the fault suite's parts at the
 * scale of hours of production. Two api pods and four worker pods of the packaged service on
 * one Redis with AOF; payment and voucher tasks over HTTP, with duplicates, for
 * {@code soak.minutes}; a worker killed with SIGKILL (and replaced) every 30 to 60 s; Redis
 * crashed and restarted once, half-way. A sample every 5 s (finished tasks, Redis memory, RSS
 * of the pods) goes to {@code target/soak/soak.csv} and {@code soak.png}. At the end the
 * auditor checks every balance, ledger and voucher: each accepted task took effect exactly
 * once, none is left queued, locked or dead, and every key that must expire has an expiry.
 * The dedup window is shorter than the run, so Redis memory levels off at the window's worth of
 * tasks; the soak then waits one window more and checks that no task hash or done marker is
 * left and how far memory fell. Exit code 1 on any violation.
 * <p>
 * System properties: {@code soak.tasks} (1,000,000), {@code soak.minutes} (20),
 * {@code soak.workers} (4), {@code soak.api-pods} (2), {@code soak.dedup-window} (3m, longer
 * than any duplicate's delay after its first copy), {@code soak.seed}.
 */
public final class Soak {

    private static final Path DIR = Path.of("target", "soak");
    private static final List<String> QUEUES = List.of("payment", "voucher");

    public static void main(String[] args) throws Exception {
        int tasks = Integer.getInteger("soak.tasks", 1_000_000);
        int minutes = Integer.getInteger("soak.minutes", 20);
        int workerPods = Integer.getInteger("soak.workers", 4);
        int apiPodCount = Integer.getInteger("soak.api-pods", 2);
        long seed = Long.getLong("soak.seed", System.currentTimeMillis());
        Duration window = Duration.parse("PT" + System.getProperty("soak.dedup-window", "3m").toUpperCase(java.util.Locale.ROOT));
        Files.createDirectories(DIR);
        Figures figures = new Figures();
        RedisProcess redis = RedisProcess.start(DIR.resolve("redis-" + seed));
        Runtime.getRuntime().addShutdownHook(new Thread(redis::stop, "soak-redis-stop"));
        List<String> problems = new ArrayList<>();
        try (RedisProbe probe = new RedisProbe(redis.url()); WorkerFleet fleet = new WorkerFleet(WorkerFleet.JAR, redis.url(), DIR,
                        pod -> settings(window), Map.of())) {
            List<AppJvm> apiPods = new ArrayList<>();
            for (int i = 0; i < apiPodCount; i++) {
                apiPods.add(fleet.startApiPod());
            }
            for (int i = 0; i < workerPods; i++) {
                fleet.launchWorker();
            }
            fleet.all().forEach(fleet::awaitReady);
            HttpApi api = new HttpApi(apiPods.stream().mapToInt(AppJvm::port).toArray());
            // 60 % payments over 500 accounts, 40 % vouchers over 50 campaigns: no account runs dry, no stock runs out
            TaskPlan plan = new TaskPlan(seed, tasks * 3 / 5, tasks - tasks * 3 / 5, 500, 50);
            LoadProducer producer = new LoadProducer(api, probe, plan, figures);
            producer.openAccountsAndCampaigns();
            figures.set("Redis used memory before the load, MiB", probe.usedMemory() >> 20);
            FaultInjector faults = new FaultInjector(fleet, probe, figures);
            log("seed " + seed + ": " + tasks + " tasks over " + minutes + " min, " + apiPodCount + " api pods, "
                    + workerPods + " worker pods, dedup window " + window + ", Redis " + redis.url());
            ExecutorService background = Executors.newFixedThreadPool(2);
            try (SoakSampler sampler = new SoakSampler(api, probe, fleet, apiPods, figures, 5_000).start()) {
                try (ChaosLoop chaos = new ChaosLoop(fleet, figures, Duration.ofSeconds(30), Duration.ofSeconds(60))
                        .start()) {
                    Future<?> load = background.submit(() -> {
                        producer.run(minutes * 60, Duration.ofSeconds(1));
                        return null;
                    });
                    Future<?> redisCrash = background.submit(() -> {
                        Thread.sleep(minutes * 30_000L);
                        faults.crashAndRestartRedis(redis, Duration.ofSeconds(2));
                        log("Redis crashed and restarted");
                        return null;
                    });
                    load.get(minutes * 3L, TimeUnit.MINUTES);
                    redisCrash.get(1, TimeUnit.MINUTES);
                } finally {
                    background.shutdownNow();
                    producer.close();
                }
                log("load done; waiting until every task is finished");
                Auditor auditor = new Auditor(api, probe, plan, figures, true);
                auditor.awaitQuiescence(Duration.ofMinutes(15));
                sampler.sample();
                figures.set("Redis used memory when every task had finished, MiB", probe.usedMemory() >> 20);
                problems.addAll(auditor.violations());
                problems.addAll(keysWithoutExpiry(probe, figures));
                log("audit done; waiting one dedup window (" + window + ") for the finished tasks to be forgotten");
                Thread.sleep(window.plusSeconds(15).toMillis());
                sampler.sample();
                problems.addAll(keysOutlivingTheWindow(probe, figures));
                write(sampler.rows(), tasks, minutes, window, seed);
            }
            problems.addAll(producer.violations());
            problems.addAll(fleet.crashes());
            figures.set("unique task ids", plan.tasks().size());
            figures.set("HTTP requests resent after a 503 or a cut connection", api.resends());
            LogTally.addTo(figures, fleet.all());
            figures.set("worker JVMs started in all", fleet.all().size());
        } finally {
            redis.stop();
        }
        String report = "soak seed " + seed + "\n" + figures.report() + problems.size() + " violations\n"
                + problems.stream().limit(50).collect(Collectors.joining("\n"));
        Files.writeString(DIR.resolve("report.txt"), report);
        log(report);
        System.exit(problems.isEmpty() ? 0 : 1);
    }

    /**
     * Keys that must expire (every task is finished now): task hashes with the result retention,
     * dedup record buckets after the window, locks and job locks with their TTL. One without an
     * expiry would stay forever.
     */
    private static List<String> keysWithoutExpiry(RedisProbe probe, Figures figures) {
        List<String> problems = new ArrayList<>();
        for (String pattern : List.of(RedisProbe.ANY_QUEUE + "task:*", RedisProbe.ANY_QUEUE + "records:*",
                RedisProbe.ANY_QUEUE + "lock:*", "dedupq:joblock:*")) {
            List<String> keys = probe.keys(pattern);
            List<Long> ttls = probe.pttlAll(keys);
            for (int i = 0; i < keys.size(); i++) {
                if (ttls.get(i) == -1) {
                    problems.add("key " + keys.get(i) + " has no expiry");
                }
            }
            figures.add("keys that must expire, checked for an expiry", keys.size());
        }
        return problems;
    }

    /** The fault suite's queue settings, with the soak's dedup window. */
    private static Map<String, String> settings(Duration window) {
        Map<String, String> settings = new LinkedHashMap<>(WorkerFleet.queueSettings(QUEUES));
        QUEUES.forEach(q -> settings.put("dedupq.queues." + q + ".dedup-window", window.toMillis() + "ms"));
        return settings;
    }

    /**
     * One window after the last task finished, no task hash may be left and no dedup record may
     * still count (a record's bucket stays until a write prunes it or, at the latest, two windows).
     */
    private static List<String> keysOutlivingTheWindow(RedisProbe probe, Figures figures) {
        figures.set("Redis used memory one dedup window later, MiB", probe.usedMemory() >> 20);
        List<String> left = new ArrayList<>(probe.keys(RedisProbe.ANY_QUEUE + "task:*"));
        long now = probe.serverMillis();
        for (String bucket : probe.keys(RedisProbe.ANY_QUEUE + "records:*")) {
            probe.hvals(bucket).stream().filter(value -> Long.parseLong(value) / 10 > now).findAny()
                    .ifPresent(value -> left.add(bucket));
        }
        figures.set("task hashes and dedup record buckets still counting one dedup window later", left.size());
        return left.isEmpty() ? List.of()
                : List.of(left.size() + " task hashes or dedup records outlived the dedup window, e.g. "
                        + left.subList(0, Math.min(5, left.size())));
    }

    private static void write(List<SoakSampler.Row> rows, int tasks, int minutes, Duration window, long seed)
            throws IOException {
        List<String> lines = new ArrayList<>(List.of(SoakSampler.CSV_HEADER));
        rows.forEach(r -> lines.add(r.csv()));
        Files.write(DIR.resolve("soak.csv"), lines);
        SoakChart.write(rows, String.format(java.util.Locale.ROOT,
                "dedupq soak: %,d tasks over %d min, dedup window %d min, kill -9 of a worker every 30-60 s (red), "
                        + "Redis crash (blue); seed %d",
                tasks, minutes, window.toMinutes(), seed), DIR.resolve("soak.png"));
    }

    private static void log(String text) {
        System.out.println("[soak " + java.time.LocalTime.now().withNano(0) + "] " + text);
    }

    private Soak() {
    }
}
