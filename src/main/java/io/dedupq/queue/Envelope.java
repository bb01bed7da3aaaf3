package io.dedupq.queue;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
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

    public Envelope nextAttempt() {
        return new Envelope(id, type, payload, attempt + 1, enqueuedAt);
    }
}
