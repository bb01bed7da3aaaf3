package io.dedupq.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.RedisProcess;
import io.dedupq.support.AppJvm;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A small run of the benchmark's dedupq side (bench/run.sh runs the full one): the measured
 * application (bench/app, a consumer of the framework jar) as separate worker and API JVMs against a private Redis, tiny workloads with 20 % duplicate
 * ids, executions counted from the no-op handler's own records. Every id runs exactly once,
 * with two workers sharing a backlog, with the no-op handler on handler threads instead of the
 * event loop, and with duplicates arriving while (and after) their first copy runs.
 */
class BenchSmokeIT {

    private static final Path OUT = Path.of("target", "bench-smoke");
    private static final int JOBS = 600;

    private static RedisProcess redis;
    private static BenchRedis client;
    private static AppJvm api;
    private static DedupqCell cell;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start(OUT.resolve("redis"), "--appendonly", "no");
        BenchSettings settings = new BenchSettings(BenchSettings.BENCH_APP, redis.url(), JOBS,
                0.2, 42, 100, 5, 100, 120, Map.of(), List.of(), OUT);
        client = new BenchRedis(redis.url());
        api = settings.startApp("api", Map.of("dedupq.worker.enabled", "false"));
        cell = new DedupqCell(settings, client, 0, api.port());
    }

    @AfterAll
    static void stop() {
        if (api != null) {
            api.close();
        }
        if (client != null) {
            client.close();
        }
        if (redis != null) {
            redis.stop();
        }
    }

    @Test
    void twoWorkersOnABacklogOfPushedEnvelopesRunEveryIdOnce() {
        CellResult r = cell.run(Producer.Mode.LPUSH, 4, 2, false, "smoke-lpush");

        assertFalse(r.timedOut());
        assertEquals(480, r.unique(), "the peer's workload: 20 % of 600 entries repeat an earlier id");
        assertEquals(r.unique(), r.executions(), "one handler run per unique id");
        assertEquals(0, r.idsRunTwice());
        assertEquals(0, r.idsMissing());
        assertEquals(JOBS - r.unique(), r.droppedByWorker(), "every pushed duplicate was dropped by a worker");
        assertTrue(r.processingRate() > 0);
    }

    @Test
    void theNoOpHandlerOnHandlerThreadsRunsEveryIdOnce() {
        CellResult r = cell.onHandlerThreads().run(Producer.Mode.LPUSH, 4, 1, false, "smoke-lpush-threads");

        assertFalse(r.timedOut());
        assertEquals("lpush-threads", r.variant());
        assertEquals(r.unique(), r.executions(), "one handler run per unique id");
        assertEquals(0, r.idsRunTwice());
        assertEquals(0, r.idsMissing());
    }

    @Test
    void duplicatesSentOverHttpWhileTheWorkerRunsNeverRunTwice() {
        CellResult r = cell.run(Producer.Mode.HTTP, 4, 1, true, "smoke-http-overlap");

        assertFalse(r.timedOut());
        assertEquals(r.unique(), r.executions(), "one handler run per unique id");
        assertEquals(0, r.idsRunTwice());
        assertEquals(0, r.idsMissing());
        assertTrue(r.refusedAtEnqueue() >= JOBS - r.unique(), "the API refused every duplicate");
        assertTrue(r.dupsAfterDone() >= 0);
    }
}
