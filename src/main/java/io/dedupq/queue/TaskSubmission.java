package io.dedupq.queue;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One task as a producer hands it over; a null id is replaced by a random UUID unless the queue sets require-id. */
public record TaskSubmission(
        @Schema(description = "1-128 of A-Z a-z 0-9 . _ : - starting with a letter or digit; "
                + "omitted or null: a UUID, or 400 on a queue that sets require-id",
                pattern = TaskIds.PATTERN) String id,
        @Schema(required = true, description = "a known task type, e.g. payment or voucher") String type,
        @Schema(required = true, type = SchemaType.OBJECT, description = "the task type's payload") JsonNode payload,
        @Schema(description = "the task's group, for the queue's group-concurrency: same rule as id; "
                + "omitted or null: the handler's TaskHandler.group(payload), if any", pattern = TaskIds.PATTERN) String group) {

    /** A task without a group of its own (its handler may still give it one). */
    public TaskSubmission(String id, String type, JsonNode payload) {
        this(id, type, payload, null);
    }
}
