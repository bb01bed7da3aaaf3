package io.dedupq.queue;

import com.fasterxml.jackson.databind.JsonNode;

/** One task as a producer hands it over; a null id is replaced by a random UUID. */
public record TaskSubmission(String id, String type, JsonNode payload) {
}
