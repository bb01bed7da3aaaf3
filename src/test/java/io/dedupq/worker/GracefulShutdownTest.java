package io.dedupq.worker;

import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.BlockingHandler;
import io.dedupq.support.TestRedis;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.junit.jupiter.api.Test;

/**
 * Graceful shutdown with a handler that outlives the shutdown grace (1 s here: a blocking handler that ignores interrupts): the worker
 * stops within the grace, puts the unfinished copy back on pending with its lock and its
 * running status cleared, and logs how many copies it put back. The test runs the worker's own
 * shutdown observer, the code Quarkus runs on SIGTERM (FaultSuiteIT sends the real SIGTERM to
 * a packaged JVM, whose handlers finish in time); this app is its own (a test profile), so no
 * other test sees the stopped worker.
 */
@QuarkusTest
@TestProfile(GracefulShutdownTest.ShortGrace.class)
@WithTestResource(RedisTestResource.class)
class GracefulShutdownTest {

    private static final Duration GRACE = Duration.ofSeconds(1);
    /** The message with its parameters filled in, as the console shows it. */
    private static final PatternFormatter MESSAGE = new PatternFormatter("%s");
    private static final Pattern STOPPED = Pattern.compile("stopped; (\\d+) unfinished copies back on pending");

    public static class ShortGrace implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dedupq.worker.shutdown-grace", GRACE.toMillis() + "ms");
        }
    }

    @Inject
    WorkerPool pool;

    @Inject
    WorkerIdentity worker;

    @Inject
    BlockingHandler handler;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @Test
    void aCopyWhoseHandlerOutlivesTheGraceIsBackOnPendingAndCounted() {
        String queue = BlockingHandler.TYPE;
        String id = uniqueId("stuck");
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(MESSAGE.format(record));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger(WorkerPool.class.getName());
        log.addHandler(capture);
        try {
            submit(task(id, queue, Map.of("ignoreInterrupts", true))).then().statusCode(202);
            await().alias("the handler started").atMost(Duration.ofSeconds(10)).until(() -> handler.running(id));

            long started = System.nanoTime();
            pool.onStop(new ShutdownEvent());
            long tookMillis = (System.nanoTime() - started) / 1_000_000;

            assertTrue(tookMillis < GRACE.toMillis() + 5_000, "shutdown must end soon after the grace, took " + tookMillis + " ms");
            assertTrue(handler.running(id), "the handler really outlived the grace");
            assertTrue(redis.lrange(keys.pending(whole(queue))).stream().anyMatch(envelope -> envelope.contains("\"" + id + "\"")),
                    "graceful shutdown must put the copy of a handler that outlived the grace back on pending; pending: "
                            + redis.lrange(keys.pending(whole(queue))) + ", processing list: "
                            + redis.lrange(keys.processing(whole(queue), worker.id())));
            assertEquals(0, redis.llen(keys.processing(whole(queue), worker.id())), "nothing is left in the processing list");
            assertFalse(redis.exists(keys.lock(whole(queue), id)), "its lock is freed, so another worker runs it at once");
            assertEquals("queued", redis.hget(keys.task(whole(queue), id), "status"));
            assertNull(redis.hget(keys.task(whole(queue), id), "token"), "no execution owns it now");
            long requeued = lines.stream().map(STOPPED::matcher).filter(Matcher::find)
                    .mapToLong(m -> Long.parseLong(m.group(1))).sum();
            assertTrue(requeued >= 1, "the stop is logged with the copies put back (at least this one): " + lines);
        } finally {
            log.removeHandler(capture);
            handler.release(id);
        }
    }
}
