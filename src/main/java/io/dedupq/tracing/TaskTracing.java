package io.dedupq.tracing;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.Envelope;
import io.dedupq.queue.Partition;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * dedupq's OpenTelemetry spans: {@code enqueue <queue>} where a task is accepted, {@code wait
 * <queue>} for its time in the queue and {@code handle <queue>} around its handler on the worker,
 * the last two children of the first through the W3C trace context the envelope carries. On only
 * while the application's OpenTelemetry SDK is (an exporter is configured, see
 * {@code config/OtelDefaultsConfigSourceFactory}) and {@code dedupq.tracing.enabled} is true; off,
 * callers check {@link #on()} and create nothing, and envelopes carry no trace field.
 */
@ApplicationScoped
public class TaskTracing {

    static final AttributeKey<String> TASK_ID = AttributeKey.stringKey("dedupq.task.id");
    static final AttributeKey<String> QUEUE = AttributeKey.stringKey("dedupq.queue");
    static final AttributeKey<String> TYPE = AttributeKey.stringKey("dedupq.task.type");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("dedupq.task.attempt");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("dedupq.outcome");
    static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");

    /** The envelope's two trace fields, as the W3C propagator reads them. */
    private static final TextMapGetter<Envelope> ENVELOPE = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Envelope envelope) {
            return List.of("traceparent", "tracestate");
        }

        @Override
        public String get(Envelope envelope, String key) {
            if (envelope == null) {
                return null;
            }
            return "traceparent".equals(key) ? envelope.traceparent() : "tracestate".equals(key) ? envelope.tracestate() : null;
        }
    };

    private final boolean on;
    private final Tracer tracer;

    public TaskTracing(DedupqConfig config, Instance<OpenTelemetry> openTelemetry,
            @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false") boolean sdkDisabled,
            @ConfigProperty(name = "quarkus.otel.traces.enabled", defaultValue = "true") boolean tracesEnabled) {
        this.on = config.tracing().enabled() && !sdkDisabled && tracesEnabled;
        // the SDK's bean is looked up only when it is used
        this.tracer = on ? openTelemetry.get().getTracer("io.dedupq") : null;
    }

    /** True when dedupq traces: the one check on the worker's path when it does not. */
    public boolean on() {
        return on;
    }

    /** The enqueue spans of one call of {@code TaskQueue}; only when {@link #on()}. */
    public EnqueueSpans enqueueSpans() {
        return new EnqueueSpans(tracer, Context.current());
    }

    /**
     * Starts the {@code handle} span of one execution (and records its {@code wait}, for a first
     * attempt), children of the enqueue span the envelope names; a root span (and no wait) when it
     * names none or one that does not read. {@code envelope} null: the copy did not read. Only
     * when {@link #on()}.
     */
    public ExecutionSpan execution(Partition partition, String id, Envelope envelope, long startedMillis) {
        Context parent = W3CTraceContextPropagator.getInstance().extract(Context.root(), envelope, ENVELOPE);
        // the time in the queue is told under an enqueue span only: a producer's own enqueuedAt may be anything
        boolean enqueueSpan = Span.fromContext(parent).getSpanContext().isValid();
        if (enqueueSpan && envelope.attempt() == 0 && envelope.enqueuedAt() > 0 && envelope.enqueuedAt() <= startedMillis) {
            tracer.spanBuilder("wait " + partition.queue()).setParent(parent).setSpanKind(SpanKind.INTERNAL)
                    .setStartTimestamp(envelope.enqueuedAt(), TimeUnit.MILLISECONDS)
                    .setAttribute(TASK_ID, id).setAttribute(QUEUE, partition.queue())
                    .startSpan().end(startedMillis, TimeUnit.MILLISECONDS);
        }
        Span span = tracer.spanBuilder("handle " + partition.queue()).setParent(parent).setSpanKind(SpanKind.CONSUMER)
                .setStartTimestamp(startedMillis, TimeUnit.MILLISECONDS)
                .setAttribute(TASK_ID, id).setAttribute(QUEUE, partition.queue())
                .setAttribute(MESSAGING_SYSTEM, "dedupq").setAttribute(DESTINATION, partition.queue())
                .setAttribute(MESSAGE_ID, id)
                .startSpan();
        if (envelope != null) {
            span.setAttribute(TYPE, envelope.type());
            span.setAttribute(ATTEMPT, envelope.attempt());
        }
        return new ExecutionSpan(span);
    }
}
