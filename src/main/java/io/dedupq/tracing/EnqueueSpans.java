package io.dedupq.tracing;

import io.dedupq.queue.EnqueueResult;
import io.dedupq.queue.Envelope;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code enqueue <queue>} spans of one call of {@code TaskQueue} (one task, or a batch): one
 * per task, children of the caller's current span (the HTTP request's, or the application's own
 * in-process), each ended with its task's answer when Redis has replied. From {@link TaskTracing#enqueueSpans()}.
 */
public final class EnqueueSpans {

    private static final TextMapSetter<Map<String, String>> FIELDS = Map::put;

    private final Tracer tracer;
    private final Context parent;
    private final List<Span> spans = new ArrayList<>();

    EnqueueSpans(Tracer tracer, Context parent) {
        this.tracer = tracer;
        this.parent = parent;
    }

    /**
     * Starts the span of the next task in the call's order and returns the trace context for its
     * envelope, which makes that span the parent of the task's execution.
     */
    public Envelope.Trace start(String id, String type, String queue) {
        Span span = tracer.spanBuilder("enqueue " + queue).setParent(parent).setSpanKind(SpanKind.PRODUCER)
                .setAttribute(TaskTracing.TASK_ID, id).setAttribute(TaskTracing.QUEUE, queue)
                .setAttribute(TaskTracing.TYPE, type).setAttribute(TaskTracing.MESSAGING_SYSTEM, "dedupq")
                .setAttribute(TaskTracing.DESTINATION, queue).setAttribute(TaskTracing.MESSAGE_ID, id)
                .startSpan();
        spans.add(span);
        Map<String, String> fields = new HashMap<>(4);
        W3CTraceContextPropagator.getInstance().inject(parent.with(span), fields, FIELDS);
        return new Envelope.Trace(fields.get("traceparent"), fields.get("tracestate"));
    }

    /** Ends each span with its task's answer ({@code accepted}, {@code duplicate} or {@code conflict}), in the call's order. */
    public void answered(List<EnqueueResult> results) {
        for (int i = 0; i < spans.size() && i < results.size(); i++) {
            EnqueueResult result = results.get(i);
            Span span = spans.get(i);
            span.setAttribute(TaskTracing.OUTCOME, result.conflict() ? "conflict" : result.duplicate() ? "duplicate" : "accepted");
            if (result.conflict()) {
                span.setStatus(StatusCode.ERROR, "the id is known with another type or payload");
            }
            span.end();
        }
    }

    /** Ends every span as failed: the call was refused (invalid) or Redis did not answer. */
    public void failed(Throwable failure) {
        for (Span span : spans) {
            span.recordException(failure);
            span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
            span.end();
        }
    }
}
