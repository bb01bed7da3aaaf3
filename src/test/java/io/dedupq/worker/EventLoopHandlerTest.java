package io.dedupq.worker;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.Api;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.LoopProbeHandler;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A handler that says it never blocks runs on the worker's event loop, not on a handler thread,
 * with the same guarantees: one execution per task id, retries with backoff, its outcome
 * recorded. A handler that blocks still runs on its queue's handler threads. The watchdog never
 * interrupts an event loop thread, even when the lock it watches there is lost.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class EventLoopHandlerTest {

    @Inject
    LoopProbeHandler loopProbe;

    @Inject
    FlakyHandler flaky;

    @Inject
    Watchdog watchdog;

    @Inject
    Vertx vertx;

    @Test
    void aHandlerThatNeverBlocksRunsOnTheEventLoopOncePerTask() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String id = uniqueId("loop");
            ids.add(id);
            assertEquals(202, Api.post(task(id, LoopProbeHandler.TYPE, Map.of("failures", 0))));
        }
        for (String id : ids) {
            awaitStatus(id, "succeeded");
            List<LoopProbeHandler.Run> runs = loopProbe.runs(id);
            assertEquals(1, runs.size(), "executions of " + id);
            assertTrue(runs.get(0).onEventLoop(), id + " ran on " + runs.get(0).thread());
        }
    }

    @Test
    void itsFailuresAreRetriedAsAnyHandlersAre() {
        String id = uniqueId("loop-retry");
        assertEquals(202, Api.post(task(id, LoopProbeHandler.TYPE, Map.of("failures", 1))));

        awaitStatus(id, "succeeded");
        List<LoopProbeHandler.Run> runs = loopProbe.runs(id);
        assertEquals(List.of(0, 1), runs.stream().map(LoopProbeHandler.Run::attempt).toList());
        assertTrue(runs.stream().allMatch(LoopProbeHandler.Run::onEventLoop));
    }

    @Test
    void aBlockingHandlerStillRunsOnHandlerThreads() {
        String id = uniqueId("blocking-still");
        assertEquals(202, Api.post(task(id, "flaky", Map.of("failures", 0))));

        awaitStatus(id, "succeeded");
        assertEquals(1, flaky.executions(id).size());
        assertFalse(flaky.threads(id).get(0).startsWith("vert.x-eventloop"), "ran on " + flaky.threads(id));
    }

    @Test
    void aLostLockIsReportedButTheEventLoopIsNotInterrupted() throws Exception {
        String id = uniqueId("loop-lost");
        CompletableFuture<Watchdog.Watch> watching = new CompletableFuture<>();
        vertx.runOnContext(v -> watching.complete(watchdog.watch(whole(LoopProbeHandler.TYPE), LoopProbeHandler.TYPE,
                new Claim(id, LoopProbeHandler.TYPE, "{}", "gone-worker:1", 1), 0)));
        Watchdog.Watch watch = watching.get(5, TimeUnit.SECONDS);
        // no lock carries this token: the first extension finds it lost
        watchdog.extendDue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!watch.lockLost() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            watchdog.extendDue();
        }
        assertTrue(watch.lockLost(), "the watchdog reported the lost lock");
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        vertx.runOnContext(v -> interrupted.complete(Thread.currentThread().isInterrupted()));
        assertFalse(interrupted.get(5, TimeUnit.SECONDS), "the event loop thread was not interrupted");
        vertx.runOnContext(v -> watch.close());
    }
}
