package io.dedupq.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A task's state as stored in its hash; timestamps are epoch milliseconds. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskView(String id, String queue, String type, String status, int attempts,
        Long enqueuedAt, Long startedAt, Long finishedAt, Long nextAttemptAt, String lastError,
        @Schema(type = SchemaType.OBJECT, description = "what the handler returned (any JSON)") JsonNode result) {
}
