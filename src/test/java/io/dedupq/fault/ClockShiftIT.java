package io.dedupq.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.RedisProcess;
import io.dedupq.support.AppJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A pod's wrong clock must not make others presume it dead: one worker JVM runs with its clock
 * ten minutes behind (libfaketime), next to a normal one, both taking payments from the same
 * queue while the normal one's reaper runs. Every execution logs its outcome line (TaskRunner,
 * {@code task=<id> ... outcome=}), whichever JVM ran it; every id must have exactly one. With
 * heartbeats and cutoffs on the pods' clocks the normal worker reaped the shifted one every
 * reaper turn, freeing the locks of copies it was running, and those ran a second time.
 */
class ClockShiftIT {

    static final Path FAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");
    private static final Path DIR = Path.of("target", "clock-shift");
    private static final Duration SHIFT = Duration.ofMinutes(10);
    private static final int TASKS = 2_000;
    private static final Pattern OUTCOME = Pattern.compile("task=(\\S+) queue=\\S*payment\\S* .* outcome=");
    private static final Pattern STAMP = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d)");
    private static final DateTimeFormatter STAMP_FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private static RedisProcess redis;
    private static WorkerFleet fleet;
    private static RedisProbe probe;

    @Test
    void aWorkerWhoseClockRunsTenMinutesBehindIsNotPresumedDeadAndNoTaskRunsTwice() throws Exception {
        assertTrue(Files.exists(FAKETIME), FAKETIME + " is missing: install the Debian package faketime (.ci/run does)");
        // a folder per run: the Redis of an earlier run keeps its AOF, and its done markers would drop every task
        Path run = DIR.resolve("run-" + System.currentTimeMillis());
        Files.createDirectories(run);
        redis = RedisProcess.start(run.resolve("redis"));
        probe = new RedisProbe(redis.url());
        fleet = new WorkerFleet(redis.url(), run);
        // monotonic time stays true: only the wall clock is the pod's that is off. libfaketime's
        // monotonic fix, of no use then, made the JVM start in 16 s instead of 3.
        AppJvm shifted = fleet.launchWorker(Map.of("LD_PRELOAD", FAKETIME.toString(),
                "FAKETIME", "-" + SHIFT.toMinutes() + "m", "FAKETIME_DONT_FAKE_MONOTONIC", "1",
                "FAKETIME_FORCE_MONOTONIC_FIX", "0"));
        AppJvm normal = fleet.launchWorker();
        // read as each becomes ready: its last log line is then its start's (a loaded host may take a minute for the next)
        fleet.awaitReady(normal);
        assertClockOff(normal, LocalDateTime.now(), Duration.ZERO);
        fleet.awaitReady(shifted);
        assertClockOff(shifted, LocalDateTime.now(), SHIFT);
        // the normal worker's reaper judges others only after it has beaten for a full expiry
        Thread.sleep(WorkerFleet.HEARTBEAT_EXPIRY.plusSeconds(1).toMillis());

        // one outcome line per execution
        List<String> ids = probe.pushFailingPayments("shift-", TASKS, 0);
        FaultInjector.awaitCondition("every task executed", Duration.ofMinutes(3),
                () -> executions(List.of(normal, shifted)).size() == TASKS
                        && probe.llen(RedisProbe.key("payment", "pending")) == 0);
        // a second execution of a requeued copy would come right after
        Thread.sleep(WorkerFleet.HEARTBEAT_EXPIRY.toMillis());

        Map<String, Integer> runs = executions(List.of(normal, shifted));
        List<String> twice = runs.entrySet().stream().filter(e -> e.getValue() != 1)
                .map(e -> e.getKey() + " ran " + e.getValue() + " times").toList();
        long onShifted = executions(List.of(shifted)).size();
        System.out.println("clock shift: " + onShifted + " of " + TASKS + " ids ran on the shifted worker, "
                + twice.size() + " ran more than once");
        assertTrue(twice.isEmpty(), twice.size() + " ids ran more than once, e.g. "
                + twice.subList(0, Math.min(10, twice.size())));
        assertEquals(TASKS, ids.stream().filter(runs::containsKey).count(), "every id ran");
        assertTrue(onShifted > 0, "the shifted worker took part (it was not presumed dead)");
        assertTrue(shifted.logLines().stream().noneMatch(l -> l.contains("presumed dead"))
                && normal.logLines().stream().noneMatch(l -> l.contains("presumed dead")),
                "neither worker presumed the other dead");
    }

    /** The JVM's own log stamps show its clock: {@code behind} before the test's, give or take a minute. */
    private static void assertClockOff(AppJvm jvm, LocalDateTime testNow, Duration behind) {
        String stamp = jvm.logLines().stream().map(STAMP::matcher).filter(Matcher::find).map(m -> m.group(1))
                .reduce((a, b) -> b).orElseThrow(() -> new AssertionError(jvm + " logged no time stamp"));
        Duration off = Duration.between(LocalDateTime.parse(stamp, STAMP_FORMAT), testNow);
        assertTrue(off.minus(behind).abs().compareTo(Duration.ofMinutes(1)) < 0,
                jvm + " logs " + stamp + " at " + testNow + ": its clock is " + off + " behind, expected " + behind);
    }

    /** Executions per task id, from the outcome lines of the JVMs' logs. */
    private static Map<String, Integer> executions(List<AppJvm> jvms) {
        Map<String, Integer> runs = new TreeMap<>();
        for (AppJvm jvm : jvms) {
            for (String line : jvm.logLines()) {
                Matcher m = OUTCOME.matcher(line);
                if (m.find()) {
                    runs.merge(m.group(1), 1, Integer::sum);
                }
            }
        }
        return runs;
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
