package io.dedupq.queue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The wire format on the lists, documented in README so that any producer can push it:
 * {@code {"id","type","payload","attempt","enqueuedAt"}}. Unknown fields are ignored.
 */
@RegisterForReflection
@JsonIgnoreProperties(ignoreUnknown = true)
public record Envelope(String id, String type, JsonNode payload, int attempt, long enqueuedAt) {

    public Envelope nextAttempt() {
        return new Envelope(id, type, payload, attempt + 1, enqueuedAt);
    }
}
