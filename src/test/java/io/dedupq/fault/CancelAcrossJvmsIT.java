package io.dedupq.fault;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.AppJvm;
import io.dedupq.support.BlockingHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.dedupq.worker.Watchdog;
import io.dedupq.worker.WorkerIdentity;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A running task cancelled through another JVM: it runs on this test's own app (its worker, the
 * test-only blocking handler), and the cancel is sent to the HTTP API of a pod of the packaged
 * service that runs no worker and knows the queue from its configuration alone. Only Redis joins
 * the two (cancel.lua and its pub/sub notice, the watchdog stopped meanwhile): the handler here
 * is told (ctx.cancelled(), and interrupted out of its wait), the task ends cancelled, its lock and its copy are gone, and the
 * same id sent again is refused as a duplicate for the dedup window.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class CancelAcrossJvmsIT {

    private static final Path DIR = Path.of("target", "cancel-across-jvms");
    private static final String QUEUE = BlockingHandler.TYPE;

    @Inject
    BlockingHandler blocking;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @Inject
    WorkerIdentity worker;

    @Inject
    Watchdog watchdog;

    @Test
    void aTaskRunningHereIsCancelledThroughAnotherJvmsApi() throws Exception {
        Path run = DIR.resolve("run-" + System.currentTimeMillis());
        try (WorkerFleet fleet = new WorkerFleet(WorkerFleet.JAR, RedisTestResource.redis().url(), run,
                pod -> Map.of("dedupq.queues." + QUEUE + ".concurrency", "1"), Map.of())) {
            AppJvm pod = fleet.startApiOnlyPod();
            String id = uniqueId("cross-jvm-cancel");
            submit(task(id, QUEUE, Map.of())).then().statusCode(202);
            // the notice from the other JVM's cancel alone reaches the handler: the watchdog would find the
            // cancel at its next lock extension too
            watchdog.stop();
            try {
                await().alias("the handler started here").atMost(Duration.ofSeconds(20)).until(() -> blocking.running(id));

                HttpResponse<String> cancelled = pod.sendUntilAnswered("POST", "/api/tasks/" + id + "/cancel", null);

                assertEquals(200, cancelled.statusCode(), cancelled.body());
                assertTrue(cancelled.body().contains("\"status\":\"cancelled\""), cancelled.body());
                await().alias("the handler here was interrupted").atMost(Duration.ofSeconds(10))
                        .until(() -> !blocking.running(id));
                assertTrue(blocking.context(id).cancelled(), "the handler here was told");
            } finally {
                blocking.release(id);
                watchdog.start();
            }
            awaitStatus(id, "cancelled");
            assertFalse(redis.exists(keys.lock(whole(QUEUE), id)), "the id is no longer held");
            await().alias("the copy left this worker's processing list").atMost(Duration.ofSeconds(10))
                    .until(() -> redis.lrange(keys.processing(whole(QUEUE), worker.id())).stream().noneMatch(c -> c.contains(id)));

            // the pod refuses the type (it has no handler for it): the copy goes in here
            submit(task(id, QUEUE, Map.of())).then().statusCode(200).body("duplicate", equalTo(true))
                    .body("status", equalTo("cancelled"));
            assertTrue(fleet.crashes().isEmpty(), fleet.crashes().toString());
        }
    }
}
