package io.dedupq.queue;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The wire format on the lists, documented in README so that any producer can push it:
 * {@code {"id","type","payload","attempt","enqueuedAt"}}. Unknown fields are ignored; a missing
 * attempt or enqueuedAt counts as 0, as claim.lua reads it.
 */
@RegisterForReflection
@JsonIgnoreProperties(ignoreUnknown = true)
public record Envelope(String id, String type, JsonNode payload, int attempt, long enqueuedAt) {

    @JsonCreator
    static Envelope read(@JsonProperty("id") String id, @JsonProperty("type") String type,
            @JsonProperty("payload") JsonNode payload, @JsonProperty("attempt") Integer attempt,
            @JsonProperty("enqueuedAt") Long enqueuedAt) {
        return new Envelope(id, type, payload, attempt == null ? 0 : attempt, enqueuedAt == null ? 0 : enqueuedAt);
    }

    /**
     * The JSON of a first attempt whose payload is JSON text already, as the mapper writes this
     * record: enqueue has the payload's text for its digest, and serialising it a second time
     * inside the envelope cost as much again.
     */
    public static String firstAttemptJson(String id, String type, String payloadJson, long enqueuedAt) {
        StringBuilder json = new StringBuilder(payloadJson.length() + id.length() + type.length() + 72);
        JsonStringEncoder quote = JsonStringEncoder.getInstance();
        json.append("{\"id\":\"");
        quote.quoteAsString(id, json);
        json.append("\",\"type\":\"");
        quote.quoteAsString(type, json);
        return json.append("\",\"payload\":").append(payloadJson).append(",\"attempt\":0,\"enqueuedAt\":").append(enqueuedAt)
                .append('}').toString();
    }

    public Envelope nextAttempt() {
        return new Envelope(id, type, payload, attempt + 1, enqueuedAt);
    }
}
