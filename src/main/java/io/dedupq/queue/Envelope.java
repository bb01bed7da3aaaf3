package io.dedupq.queue;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The wire format on the lists, documented in README so that any producer can push it:
 * {@code {"id","type","payload","attempt","enqueuedAt"}}, and with tracing on the W3C trace context
 * of the task's enqueue span ({@code "traceparent"}, {@code "tracestate"}; see docs/operations.md),
 * and the task's own handler timeout in ms ({@code "timeout"}, absent when the queue's applies),
 * and {@code "priority"} ({@link Priority}) when it is not the default, so that a retry or a
 * requeued copy goes back to its level's list, and the task's {@code "group"} where it has one
 * (group concurrency: claim.lua reads it).
 * Unknown fields are ignored; a missing attempt or enqueuedAt counts as 0, as claim.lua reads it;
 * a trace field that is not text, or a timeout that is not a whole number above 0, is ignored,
 * never a reason to fail the task; a priority that is not a level counts as the default, as the
 * scripts read it.
 */
@RegisterForReflection
@JsonIgnoreProperties(ignoreUnknown = true)
public record Envelope(String id, String type, JsonNode payload, int attempt, long enqueuedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) String traceparent,
        @JsonInclude(JsonInclude.Include.NON_NULL) String tracestate,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long timeout,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer priority,
        @JsonInclude(JsonInclude.Include.NON_NULL) String group) {

    /** The W3C trace context an envelope carries (tracestate may be null). */
    public record Trace(String traceparent, String tracestate) {
    }

    @JsonCreator
    static Envelope read(@JsonProperty("id") String id, @JsonProperty("type") String type,
            @JsonProperty("payload") JsonNode payload, @JsonProperty("attempt") Integer attempt,
            @JsonProperty("enqueuedAt") Long enqueuedAt, @JsonProperty("traceparent") JsonNode traceparent,
            @JsonProperty("tracestate") JsonNode tracestate, @JsonProperty("timeout") JsonNode timeout,
            @JsonProperty("priority") JsonNode priority, @JsonProperty("group") JsonNode group) {
        int level = Priority.of(priority);
        return new Envelope(id, type, payload, attempt == null ? 0 : attempt, enqueuedAt == null ? 0 : enqueuedAt,
                text(traceparent), text(tracestate), millis(timeout), level == Priority.DEFAULT ? null : level,
                text(group));
    }

    /**
     * The JSON of a first attempt whose payload is JSON text already, as the mapper writes this
     * record: enqueue has the payload's text for its digest, and serialising it a second time
     * inside the envelope cost as much again. {@code trace} is null with tracing off, {@code timeout}
     * (ms) null when the queue's applies; the default {@code priority} is left out.
     */
    public static String firstAttemptJson(String id, String type, String payloadJson, long enqueuedAt, Trace trace,
            Long timeout, int priority, String group) {
        StringBuilder json = new StringBuilder(payloadJson.length() + id.length() + type.length() + 72);
        JsonStringEncoder quote = JsonStringEncoder.getInstance();
        json.append("{\"id\":\"");
        quote.quoteAsString(id, json);
        json.append("\",\"type\":\"");
        quote.quoteAsString(type, json);
        json.append("\",\"payload\":").append(payloadJson).append(",\"attempt\":0,\"enqueuedAt\":").append(enqueuedAt);
        if (trace != null) {
            json.append(",\"traceparent\":\"");
            quote.quoteAsString(trace.traceparent(), json);
            json.append('"');
            if (trace.tracestate() != null) {
                json.append(",\"tracestate\":\"");
                quote.quoteAsString(trace.tracestate(), json);
                json.append('"');
            }
        }
        if (timeout != null) {
            json.append(",\"timeout\":").append(timeout.longValue());
        }
        if (priority != Priority.DEFAULT) {
            json.append(",\"priority\":").append(priority);
        }
        if (group != null) {
            // a group is an id (TaskIds): nothing in it needs quoting
            json.append(",\"group\":\"").append(group).append('"');
        }
        return json.append('}').toString();
    }

    public Envelope nextAttempt() {
        return new Envelope(id, type, payload, attempt + 1, enqueuedAt, traceparent, tracestate, timeout, priority, group);
    }

    private static Long millis(JsonNode node) {
        return node != null && node.canConvertToExactIntegral() && node.canConvertToLong() && node.longValue() > 0
                ? node.longValue() : null;
    }

    private static String text(JsonNode node) {
        return node != null && node.isTextual() ? node.textValue() : null;
    }
}
