package io.dedupq.queue;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A task's state as stored in its hash; timestamps are epoch milliseconds. Once a finished task's
 * result retention has passed, only its id, queue and outcome are left (from its done marker) until
 * the dedup window ends: {@link #outcomeOnly()}.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskView(String id, String queue, String type, String status,
        @Schema(description = "absent once only the outcome is left") Integer attempts,
        Long enqueuedAt, Long startedAt, Long finishedAt, Long nextAttemptAt, String lastError,
        @Schema(type = SchemaType.OBJECT, description = "what the handler returned (any JSON)") JsonNode result,
        @Schema(description = "the last progress the handler reported (ctx.progress), while it runs and after; "
                + "absent when it reported none") Progress progress,
        @Schema(description = "0 (lowest) to 9 (highest); absent once only the outcome is left") Integer priority) {

    /**
     * What a handler last reported.
     *
     * @param percent 0 to 100
     * @param note    the handler's note, "" for none
     * @param at      when it was written, by Redis's clock (epoch ms)
     */
    @RegisterForReflection
    public record Progress(int percent, String note, long at) {

        /** From a task hash's fields (progress.lua writes the three together); null when none was reported. */
        static Progress of(HashFields task) {
            Long percent = task.number("progress");
            return percent == null ? null : new Progress(percent.intValue(),
                    Objects.requireNonNullElse(task.text("progressNote"), ""), task.count("progressAt"));
        }
    }

    static TaskView outcome(String id, String queue, String status) {
        return new TaskView(id, queue, null, status, null, null, null, null, null, null, null, null, null);
    }

    /** True when the hash is gone and this is what the done marker kept: no type, attempts, times or result. */
    @JsonIgnore
    public boolean outcomeOnly() {
        return attempts == null;
    }
}
