package io.dedupq.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.dedupq.config.RedisProcess;
import io.dedupq.support.AppJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Never twice, never lost — against real processes. Starts Redis (AOF) and separate JVMs of the
 * packaged application (one api pod that also works, three worker pods), enqueues thousands of
 * payment and voucher tasks with duplicates over HTTP and straight onto the lists, and
 * meanwhile kills workers with SIGKILL, freezes one mid-payment past its lock TTL, stops one
 * with SIGTERM, and crashes Redis (SIGKILL) and starts it again on its AOF. Then it audits
 * balances, ledgers, vouchers and what is left in Redis.
 * Logs of every JVM are in {@code target/fault/}; the seed is printed, {@code -Dfault.seed}
 * replays the same tasks.
 */
class FaultSuiteIT {

    private static final Path DIR = Path.of("target", "fault");
    private static final int WORKER_PODS = 3;

    private static RedisProcess redis;
    private static WorkerFleet fleet;
    private static RedisProbe probe;

    @Test
    void everyTaskRunsExactlyOnceThroughKillsPausesShutdownAndARedisCrash() throws Exception {
        String nativeRunner = System.getProperty("native.image.path", "");
        assumeFalse(!Files.exists(WorkerFleet.JAR) && !nativeRunner.isEmpty() && Files.exists(Path.of(nativeRunner)),
                "a native build (-Dnative) has no JVM jar; the fault suite runs against the JVM package");
        long started = System.nanoTime();
        long seed = Long.getLong("fault.seed", System.currentTimeMillis());
        Figures figures = new Figures();
        deleteRecursively(DIR);
        redis = RedisProcess.start(DIR.resolve("redis"));
        Runtime.getRuntime().addShutdownHook(new Thread(redis::stop, "fault-suite-redis-stop"));
        probe = new RedisProbe(redis.url());
        fleet = new WorkerFleet(redis.url(), DIR);
        AppJvm apiPod = fleet.startApiPod();
        List<AppJvm> workers = new ArrayList<>();
        for (int i = 0; i < WORKER_PODS; i++) {
            workers.add(fleet.launchWorker());
        }
        workers.forEach(fleet::awaitReady);

        HttpApi api = new HttpApi(apiPod.port());
        TaskPlan plan = new TaskPlan(seed, 2_300, 1_500, 20, 8);
        LoadProducer producer = new LoadProducer(api, probe, plan, figures);
        producer.openAccountsAndCampaigns();
        FaultInjector faults = new FaultInjector(fleet, probe, figures);
        List<String> problems = new ArrayList<>();
        ExecutorService background = Executors.newSingleThreadExecutor();
        long loadStarted = System.nanoTime();
        try (ChaosLoop chaos = new ChaosLoop(fleet, figures, Duration.ofSeconds(4), Duration.ofSeconds(7)).start()) {
            Future<?> load = background.submit(() -> {
                producer.run(40, Duration.ofSeconds(1));
                return null;
            });
            problems.addAll(faults.pauseMidPayment());
            faults.crashAndRestartRedis(redis, Duration.ofSeconds(2));
            problems.addAll(faults.terminateUnderLoad());
            figures.set("SIGTERM happened while the producer was still sending", load.isDone() ? 0 : 1);
            load.get(4, TimeUnit.MINUTES);
        } finally {
            background.shutdownNow();
            producer.close();
        }
        figures.set("milliseconds of load and faults", (System.nanoTime() - loadStarted) / 1_000_000);

        Auditor auditor = new Auditor(api, probe, plan, figures);
        auditor.awaitQuiescence(Duration.ofMinutes(2));
        List<TaskPlan.Planned> sample = plan.tasks().subList(0, 200);
        List<JsonNode> late = producer.resendAfterCompletion(sample);
        for (int i = 0; i < late.size(); i++) {
            if (late.get(i).path("code").asInt() != 200 || !"succeeded".equals(late.get(i).path("status").asText())) {
                problems.add("resent finished task " + sample.get(i).id() + " answered " + late.get(i));
            }
        }
        problems.addAll(auditor.violations());
        problems.addAll(producer.violations());
        problems.addAll(fleet.crashes());

        tally(figures, plan, producer, api);
        figures.set("seconds, whole test", (System.nanoTime() - started) / 1_000_000_000);
        System.out.println("fault suite seed " + seed + "\n" + figures.report());
        assertTrue(problems.isEmpty(), problems.size() + " violations:\n" + String.join("\n", problems));
        assertEquals(plan.tasks().size(), figures.get("unique tasks that succeeded"));
    }

    private void tally(Figures figures, TaskPlan plan, LoadProducer producer, HttpApi api) {
        figures.set("unique task ids", plan.tasks().size());
        figures.set("task submissions over HTTP", figures.get("submissions: first copies")
                + figures.get("submissions: concurrent duplicates")
                + figures.get("submissions: duplicates after the first copy"));
        figures.set("HTTP requests resent after a 503 or a cut connection", api.resends());
        figures.set("ids accepted (202) once", producer.accepted().values().stream().filter(n -> n.get() == 1).count());
        for (JsonNode queue : api.read("/api/queues")) {
            String q = queue.path("queue").asText();
            for (String field : List.of("enqueued", "succeeded", "failed", "retried", "duplicatesRejected",
                    "skippedDone", "skippedLocked", "skippedStale", "lostLocks")) {
                figures.set("/api/queues " + q + "." + field, queue.path(field).asLong());
            }
        }
        LogTally.addTo(figures, fleet.all());
        figures.set("worker JVMs started in all", fleet.all().size());
    }

    @AfterAll
    static void stopEverything() {
        if (fleet != null) {
            fleet.close();
        }
        if (probe != null) {
            probe.close();
        }
        if (redis != null) {
            redis.stop();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
