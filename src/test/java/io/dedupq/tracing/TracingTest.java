package io.dedupq.tracing;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.TaskQueue;
import io.dedupq.support.Envelopes;
import io.dedupq.support.RedisTestResource;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With the OpenTelemetry SDK on (as in an application that configured an exporter; here the
 * spans go to an in-memory exporter), a task's spans form one trace: the enqueue span in the
 * producer's trace, and the wait and handle spans of the worker as its children, carried by the
 * envelope's traceparent. An envelope without one still runs, under a root span.
 */
@QuarkusTest
@TestProfile(TracingTest.Traced.class)
@WithTestResource(RedisTestResource.class)
class TracingTest {

    public static class Traced implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.otel.sdk.disabled", "false");
        }
    }

    private static final AttributeKey<String> TASK_ID = AttributeKey.stringKey("dedupq.task.id");
    private static final String QUEUE = "flaky";
    private static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Inject
    InMemorySpanExporter exported;

    @Inject
    TaskQueue tasks;

    @Inject
    Tracer tracer;

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    @Test
    void anExecutionIsAChildOfTheEnqueueSpanWhichContinuesTheRequestsTrace() {
        String id = uniqueId("traced");
        given().contentType(ContentType.JSON).header("traceparent", "00-" + CLIENT_TRACE + "-00f067aa0ba902b7-01")
                .body(task(id, QUEUE, flaky(0))).post("/api/tasks").then().statusCode(202);
        awaitStatus(id, "succeeded");

        SpanData enqueue = awaitSpans("enqueue " + QUEUE, id, 1).get(0);
        SpanData handle = awaitSpans("handle " + QUEUE, id, 1).get(0);
        SpanData wait = awaitSpans("wait " + QUEUE, id, 1).get(0);

        assertEquals(CLIENT_TRACE, enqueue.getTraceId(), "the enqueue span is in the request's trace");
        assertEquals(SpanKind.PRODUCER, enqueue.getKind());
        assertEquals("accepted", attribute(enqueue, "dedupq.outcome"));
        assertEquals(enqueue.getSpanId(), handle.getParentSpanId(), "the execution's parent is the enqueue span");
        assertEquals(CLIENT_TRACE, handle.getTraceId());
        assertEquals(enqueue.getSpanId(), wait.getParentSpanId(), "the time in the queue, under the enqueue span too");
        assertTrue(wait.getEndEpochNanos() <= handle.getStartEpochNanos() + 1_000_000, "the wait ends where the handler starts");
        assertEquals(SpanKind.CONSUMER, handle.getKind());
        assertEquals(QUEUE, attribute(handle, "dedupq.queue"));
        assertEquals("flaky", attribute(handle, "dedupq.task.type"));
        assertEquals(0L, handle.getAttributes().get(AttributeKey.longKey("dedupq.task.attempt")));
        assertEquals("succeeded", attribute(handle, "dedupq.outcome"));
        assertEquals(StatusCode.UNSET, handle.getStatus().getStatusCode());
    }

    @Test
    void everyAttemptOfATaskEnqueuedInProcessIsAChildOfItsOneEnqueueSpan() {
        String id = uniqueId("traced-retry");
        Span caller = tracer.spanBuilder("caller").startSpan();
        try (Scope ignored = caller.makeCurrent()) {
            assertTrue(tasks.enqueue(id, QUEUE, flaky(1)).accepted());
        } finally {
            caller.end();
        }
        awaitStatus(id, "succeeded");

        SpanData enqueue = awaitSpans("enqueue " + QUEUE, id, 1).get(0);
        List<SpanData> handles = awaitSpans("handle " + QUEUE, id, 2);

        assertEquals(caller.getSpanContext().getSpanId(), enqueue.getParentSpanId(), "the caller's span is the parent");
        for (SpanData handle : handles) {
            assertEquals(enqueue.getSpanId(), handle.getParentSpanId(), "attempt " + attempt(handle));
        }
        assertEquals(List.of(0L, 1L), handles.stream().map(TracingTest::attempt).toList());
        assertEquals("retrying", attribute(handles.get(0), "dedupq.outcome"));
        assertEquals(StatusCode.ERROR, handles.get(0).getStatus().getStatusCode());
        assertEquals("succeeded", attribute(handles.get(1), "dedupq.outcome"));
        assertEquals(1, spans("wait " + QUEUE, id).size(), "a wait span for the first attempt only");
    }

    @Test
    void aBatchGivesEachTaskItsOwnEnqueueSpan() {
        String first = uniqueId("traced-batch");
        String second = uniqueId("traced-batch");
        given().contentType(ContentType.JSON).body(Map.of("tasks", List.of(task(first, QUEUE, flaky(0)), task(second, QUEUE, flaky(0)))))
                .post("/api/tasks/batch").then().statusCode(200);
        awaitStatus(first, "succeeded");
        awaitStatus(second, "succeeded");

        SpanData firstEnqueue = awaitSpans("enqueue " + QUEUE, first, 1).get(0);
        SpanData secondEnqueue = awaitSpans("enqueue " + QUEUE, second, 1).get(0);

        assertNotEquals(firstEnqueue.getSpanId(), secondEnqueue.getSpanId());
        assertEquals(firstEnqueue.getSpanId(), awaitSpans("handle " + QUEUE, first, 1).get(0).getParentSpanId());
        assertEquals(secondEnqueue.getSpanId(), awaitSpans("handle " + QUEUE, second, 1).get(0).getParentSpanId());
    }

    @Test
    void aDuplicateHasAnEnqueueSpanThatSaysSoAndARefusedBatchEndsItsSpansAsErrors() {
        String id = uniqueId("traced-twice");
        given().contentType(ContentType.JSON).body(task(id, QUEUE, flaky(0))).post("/api/tasks").then().statusCode(202);
        given().contentType(ContentType.JSON).body(task(id, QUEUE, flaky(0))).post("/api/tasks").then().statusCode(200);
        awaitStatus(id, "succeeded");

        List<SpanData> enqueues = awaitSpans("enqueue " + QUEUE, id, 2);
        assertEquals(List.of("accepted", "duplicate"), enqueues.stream().map(s -> attribute(s, "dedupq.outcome")).toList());
        assertEquals(enqueues.get(0).getSpanId(), awaitSpans("handle " + QUEUE, id, 1).get(0).getParentSpanId(),
                "the duplicate ran nothing: the one execution is the first enqueue's");

        String valid = uniqueId("traced-refused");
        given().contentType(ContentType.JSON).body(Map.of("tasks", List.of(task(valid, QUEUE, flaky(0)),
                task(uniqueId("traced-refused"), QUEUE, Map.of("failures", "many"))))).post("/api/tasks/batch").then().statusCode(400);
        SpanData refused = awaitSpans("enqueue " + QUEUE, valid, 1).get(0);
        assertEquals(StatusCode.ERROR, refused.getStatus().getStatusCode(), "nothing was enqueued");
    }

    @Test
    void anEnvelopeWithoutATraceOrWithABrokenOneRunsUnderARootSpan() {
        String plain = uniqueId("untraced");
        String broken = uniqueId("broken-trace");
        redis.send(Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE))).arg(Envelopes.flaky(plain, 0))
                .arg("{\"id\":\"" + broken + "\",\"type\":\"flaky\",\"payload\":{\"failures\":0},\"attempt\":0,"
                        + "\"traceparent\":\"00-not-a-trace-01\",\"tracestate\":7}"));
        awaitStatus(plain, "succeeded");
        awaitStatus(broken, "succeeded");

        for (String id : List.of(plain, broken)) {
            SpanData handle = awaitSpans("handle " + QUEUE, id, 1).get(0);
            assertFalse(handle.getParentSpanContext().isValid(), id + " has no parent");
            assertEquals("succeeded", attribute(handle, "dedupq.outcome"));
            assertEquals(List.of(), spans("wait " + QUEUE, id), "no wait without an enqueue span");
        }
    }

    private List<SpanData> awaitSpans(String name, String id, int count) {
        return await().atMost(Duration.ofSeconds(20)).until(() -> spans(name, id), found -> found.size() == count);
    }

    /** The finished spans of {@code name} for task {@code id}, by start time. */
    private List<SpanData> spans(String name, String id) {
        return exported.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals(name) && id.equals(s.getAttributes().get(TASK_ID)))
                .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
    }

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    private static long attempt(SpanData handle) {
        return handle.getAttributes().get(AttributeKey.longKey("dedupq.task.attempt"));
    }
}
