package io.dedupq.queue;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One task as a producer hands it over; a null id is replaced by a random UUID unless the queue
 * sets require-id. {@code timeout} (ms) bounds each execution's handler; null leaves it to the
 * queue's {@code dedupq.queues.<q>.timeout}. A null priority is the default ({@link Priority}).
 * None of these is part of the task's identity: a resubmission with another timeout, priority or group is a
 * duplicate of the first.
 */
public record TaskSubmission(
        @Schema(description = "1-128 of A-Z a-z 0-9 . _ : - starting with a letter or digit; "
                + "omitted or null: a UUID, or 400 on a queue that sets require-id",
                pattern = TaskIds.PATTERN) String id,
        @Schema(required = true, description = "a known task type, e.g. payment or voucher") String type,
        @Schema(required = true, type = SchemaType.OBJECT, description = "the task type's payload") JsonNode payload,
        @Schema(description = "handler timeout per execution in milliseconds, 1 to " + TaskSubmission.MAX_TIMEOUT_MILLIS
                + "; omitted: the queue's timeout, if any. An execution past it is interrupted and retried",
                minimum = "1", maximum = "" + TaskSubmission.MAX_TIMEOUT_MILLIS) Long timeout,
        @Schema(description = "0 (lowest) to 9 (highest), run highest first, FIFO within a level; omitted or null: 5",
                minimum = "0", maximum = "9") Integer priority,
        @Schema(description = "the task's group, for the queue's group-concurrency: same rule as id; "
                + "omitted or null: the handler's TaskHandler.group(payload), if any", pattern = TaskIds.PATTERN) String group) {

    /** Longest timeout a task may ask for: a week. */
    public static final long MAX_TIMEOUT_MILLIS = 604_800_000L;

    /** A task with the queue's timeout, at the default priority, without a group of its own (its handler may still give it one). */
    public TaskSubmission(String id, String type, JsonNode payload) {
        this(id, type, payload, null, null, null);
    }

    /** This task with its own handler timeout per execution in milliseconds (null: the queue's). */
    public TaskSubmission withTimeout(Long timeoutMillis) {
        return new TaskSubmission(id, type, payload, timeoutMillis, priority, group);
    }

    /** This task at a priority level (null: the default). */
    public TaskSubmission withPriority(Integer level) {
        return new TaskSubmission(id, type, payload, timeout, level, group);
    }

    /** This task in a group (null: the handler's, if any). */
    public TaskSubmission withGroup(String groupKey) {
        return new TaskSubmission(id, type, payload, timeout, priority, groupKey);
    }
}
