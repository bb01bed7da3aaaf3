package io.dedupq.tracing;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.post;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.BlockingHandler;
import io.dedupq.support.RedisTestResource;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Without an exporter endpoint (the test profile configures none, like an application that only
 * added dedupq) the OpenTelemetry SDK stays off: no span, and an envelope on the list carries no
 * trace field, even when the request came with a traceparent.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class TracingOffTest {

    @Inject
    TaskTracing tracing;

    @Inject
    BlockingHandler blocking;

    @Inject
    InMemorySpanExporter exported;

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    @ConfigProperty(name = "quarkus.otel.sdk.disabled")
    boolean sdkDisabled;

    @Test
    void withNoExporterConfiguredTheSdkIsOffAndAnEnvelopeCarriesNoTraceField() {
        assertTrue(sdkDisabled, "dedupq's default turned the SDK off");
        assertFalse(tracing.on());
        // the blocking queue's one slot is held, so the next task waits on pending, where it can be read
        String holder = uniqueId("hold");
        String waiting = uniqueId("untraced");
        try {
            assertEquals(202, post(task(holder, BlockingHandler.TYPE, Map.of())));
            await().atMost(Duration.ofSeconds(20)).until(() -> blocking.running(holder));
            given().contentType(ContentType.JSON).header("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                    .body(task(waiting, BlockingHandler.TYPE, Map.of())).post("/api/tasks").then().statusCode(202);

            String envelope = null;
            for (Response entry : redis.send(Request.cmd(Command.LRANGE).arg(keys.pending(whole(BlockingHandler.TYPE))).arg(0).arg(-1))) {
                if (entry.toString().contains("\"" + waiting + "\"")) {
                    envelope = entry.toString();
                }
            }
            assertTrue(envelope != null && envelope.startsWith("{\"id\":\"" + waiting + "\""), "on pending: " + envelope);
            assertFalse(envelope.contains("\"traceparent\"") || envelope.contains("\"tracestate\""), envelope);
        } finally {
            blocking.release(holder);
            blocking.release(waiting);
        }
        awaitStatus(holder, "succeeded");
        awaitStatus(waiting, "succeeded");
        assertEquals(0, exported.getFinishedSpanItems().size(), "no span was exported");
    }
}
