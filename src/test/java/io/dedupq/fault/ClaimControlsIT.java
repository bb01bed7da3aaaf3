package io.dedupq.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.RedisProcess;
import io.dedupq.support.AppJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Pause, rate limit and group concurrency across a fleet of three worker JVMs of the packaged
 * service, one of them SIGKILLed while the queue drains. The payment queue runs with rate-limit
 * 10/1s and group-concurrency 1, its payments in 6 groups. While
 * paused (POST /api/queues/payment/pause on one pod) none of the queued payments starts on any
 * worker; resumed, all of them run, no window of 1 s holds more than 10 starts, and no two
 * executions of one group overlap: counted from the claim and outcome times claim.lua wrote on
 * Redis's clock into each task's hash (startedAt, finishedAt), not from logs.
 */
class ClaimControlsIT {

    private static final Path DIR = Path.of("target", "claim-controls");
    private static final int STARTS = 10;
    private static final long WINDOW_MS = 1000;
    private static final int TASKS = 60;
    private static final int GROUPS = 6;

    private static RedisProcess redis;
    private static WorkerFleet fleet;
    private static RedisProbe probe;

    @Test
    void pausedNothingStartsResumedNoWindowNorGroupExceedsItsLimitEvenWhenAWorkerIsKilled() throws Exception {
        Path run = DIR.resolve("run-" + System.currentTimeMillis());
        Files.createDirectories(run);
        redis = RedisProcess.start(run.resolve("redis"));
        probe = new RedisProbe(redis.url());
        fleet = new WorkerFleet(WorkerFleet.JAR, redis.url(), run, pod -> limited(), Map.of());
        AppJvm api = fleet.startApiPod();
        AppJvm first = fleet.launchWorker();
        AppJvm second = fleet.launchWorker();
        fleet.awaitReady(first);
        fleet.awaitReady(second);

        assertEquals(200, api.sendUntilAnswered("POST", "/api/queues/payment/pause", null).statusCode());
        List<String> ids = probe.pushFailingPayments("controls-", TASKS, GROUPS);
        // a few claim cycles (block timeout 1 s) of three workers, each blocked on the empty queue when the pause came
        Thread.sleep(3_000);
        assertEquals(TASKS, probe.llen(RedisProbe.key("payment", "pending")), "paused: every payment still waits");
        assertTrue(startedAt(ids).stream().allMatch(Objects::isNull), "paused: none started on any worker");

        assertEquals(200, api.sendUntilAnswered("POST", "/api/queues/payment/resume", null).statusCode());
        FaultInjector.awaitCondition("a quarter of the payments started", Duration.ofSeconds(30),
                () -> startedAt(ids).stream().filter(Objects::nonNull).count() >= TASKS / 4);
        first.kill();
        FaultInjector.awaitCondition("every payment finished", Duration.ofSeconds(60),
                () -> probe.hgetAll(tasks(ids), "status").stream().allMatch("failed"::equals));

        List<Long> starts = new ArrayList<>(startedAt(ids).stream().map(Long::parseLong).toList());
        Collections.sort(starts);
        for (int i = 0; i + STARTS < starts.size(); i++) {
            long span = starts.get(i + STARTS) - starts.get(i);
            assertTrue(span >= WINDOW_MS, (STARTS + 1) + " starts within " + span + " ms, from start " + i + ": " + starts);
        }
        List<String> begun = startedAt(ids);
        List<String> ended = probe.hgetAll(tasks(ids), "finishedAt");
        for (int g = 0; g < GROUPS; g++) {
            List<long[]> runs = new ArrayList<>();
            for (int i = g; i < TASKS; i += GROUPS) {
                runs.add(new long[] {Long.parseLong(begun.get(i)), Long.parseLong(ended.get(i))});
            }
            runs.sort((a, b) -> Long.compare(a[0], b[0]));
            for (int i = 1; i < runs.size(); i++) {
                assertTrue(runs.get(i)[0] >= runs.get(i - 1)[1], "group acct-" + g + ": a start at " + runs.get(i)[0]
                        + " before the previous execution ended at " + runs.get(i - 1)[1]);
            }
        }
        assertEquals(List.of(), probe.keys(RedisProbe.key("payment", "parked*")), "no copy is left parked");
        long reruns = probe.hgetAll(tasks(ids), "attempts").stream().filter(a -> !"1".equals(a)).count();
        System.out.println("claim controls: " + TASKS + " payments over " + (starts.get(starts.size() - 1) - starts.get(0))
                + " ms of claim time, " + reruns + " started again after the kill");
        assertTrue(fleet.crashes().isEmpty(), fleet.crashes().toString());
    }

    private static Map<String, String> limited() {
        Map<String, String> settings = new LinkedHashMap<>(WorkerFleet.queueSettings(List.of("payment")));
        settings.put("dedupq.queues.payment.rate-limit", STARTS + "/" + WINDOW_MS + "ms");
        settings.put("dedupq.queues.payment.group-concurrency", "1");
        return settings;
    }

    /**
     * group-rate-limit 3/1s on the payment queue of two worker JVMs, one SIGKILLed while the queue
     * drains: no group has more than 3 starts (claim times on Redis's clock) in any 1 s window,
     * every payment finishes, and no copy is left parked.
     */
    @Test
    void noGroupStartsMoreThanItsRateAcrossWorkersEvenWhenOneIsKilled() throws Exception {
        int perWindow = 3;
        int groups = 4;
        int tasks = 36;
        Path run = DIR.resolve("group-rate-" + System.currentTimeMillis());
        Files.createDirectories(run);
        RedisProcess server = RedisProcess.start(run.resolve("redis"));
        Map<String, String> settings = new LinkedHashMap<>(WorkerFleet.queueSettings(List.of("payment")));
        settings.put("dedupq.queues.payment.group-rate-limit", perWindow + "/" + WINDOW_MS + "ms");
        try (RedisProbe redisProbe = new RedisProbe(server.url());
                WorkerFleet workers = new WorkerFleet(WorkerFleet.JAR, server.url(), run, pod -> settings, Map.of())) {
            AppJvm first = workers.launchWorker();
            AppJvm second = workers.launchWorker();
            workers.awaitReady(first);
            workers.awaitReady(second);
            List<String> ids = redisProbe.pushFailingPayments("group-rate-", tasks, groups);
            List<String> keys = tasks(ids);
            FaultInjector.awaitCondition("a quarter of the payments started", Duration.ofSeconds(30),
                    () -> redisProbe.hgetAll(keys, "startedAt").stream().filter(Objects::nonNull).count() >= tasks / 4);
            first.kill();
            FaultInjector.awaitCondition("every payment finished", Duration.ofSeconds(60),
                    () -> redisProbe.hgetAll(keys, "status").stream().allMatch("failed"::equals));

            List<String> begun = redisProbe.hgetAll(keys, "startedAt");
            long reruns = redisProbe.hgetAll(keys, "attempts").stream().filter(a -> !"1".equals(a)).count();
            System.out.println("group rate limit: " + tasks + " payments in " + groups + " groups, " + reruns
                    + " started again after the kill, " + redisProbe.hgetAll(List.of(RedisProbe.key("payment", "stats")),
                            "group_rate_limited") + " set aside by the limit");
            for (int g = 0; g < groups; g++) {
                List<Long> starts = new ArrayList<>();
                for (int i = g; i < tasks; i += groups) {
                    starts.add(Long.parseLong(begun.get(i)));
                }
                Collections.sort(starts);
                for (int i = 0; i + perWindow < starts.size(); i++) {
                    long span = starts.get(i + perWindow) - starts.get(i);
                    assertTrue(span >= WINDOW_MS, "group acct-" + g + ": " + (perWindow + 1) + " starts within " + span
                            + " ms: " + starts);
                }
            }
            assertEquals(List.of(), redisProbe.keys(RedisProbe.key("payment", "parked*")), "no copy is left parked");
            assertTrue(workers.crashes().isEmpty(), workers.crashes().toString());
        } finally {
            server.stop();
        }
    }

    private static List<String> tasks(List<String> ids) {
        return ids.stream().map(id -> RedisProbe.key("payment", "task:" + id)).toList();
    }

    /** The claim time of each task's latest start (Redis's clock), null where it has not started. */
    private static List<String> startedAt(List<String> ids) {
        return probe.hgetAll(tasks(ids), "startedAt");
    }

    @AfterAll
    static void stopEverything() {
        if (fleet != null) {
            fleet.destroyAll();
        }
        if (probe != null) {
            probe.close();
        }
        if (redis != null) {
            redis.stop();
        }
    }
}
