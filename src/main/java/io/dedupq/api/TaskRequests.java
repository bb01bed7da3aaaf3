package io.dedupq.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.dedupq.config.DedupqConfig;
import io.dedupq.handler.FieldError;
import io.dedupq.queue.InvalidTaskException;
import io.dedupq.queue.Priority;
import io.dedupq.queue.TaskSubmission;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** Reads the shape of task requests ({@code {"id","type","payload","timeout"}} and {@code {"tasks":[...]}}). */
@ApplicationScoped
public class TaskRequests {

    private static final Set<String> TASK_FIELDS = Set.of("id", "type", "payload", "timeout", "priority", "group");

    private final JsonBodies bodies;
    private final DedupqConfig config;

    public TaskRequests(JsonBodies bodies, DedupqConfig config) {
        this.bodies = bodies;
        this.config = config;
    }

    public TaskSubmission single(byte[] body) {
        List<FieldError> errors = new ArrayList<>();
        TaskSubmission task = task(bodies.object(body, config.api().maxBodyBytes()), "", errors);
        if (!errors.isEmpty()) {
            throw new InvalidTaskException(errors);
        }
        return task;
    }

    public List<TaskSubmission> batch(byte[] body) {
        JsonNode root = bodies.object(body, config.api().maxBatchBodyBytes());
        List<FieldError> errors = new ArrayList<>();
        unknownFields(root, Set.of("tasks"), "", errors);
        JsonNode tasks = root.get("tasks");
        int max = config.api().maxBatchSize();
        if (tasks == null || !tasks.isArray()) {
            errors.add(new FieldError("tasks", "must be an array of tasks"));
        } else if (tasks.isEmpty() || tasks.size() > max) {
            errors.add(new FieldError("tasks", "must hold 1 to " + max + " tasks"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidTaskException(errors);
        }
        List<TaskSubmission> submissions = new ArrayList<>(tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            String path = "tasks[" + i + "].";
            if (!tasks.get(i).isObject()) {
                errors.add(new FieldError("tasks[" + i + "]", "must be a JSON object"));
                continue;
            }
            submissions.add(task(tasks.get(i), path, errors));
        }
        if (!errors.isEmpty()) {
            throw new InvalidTaskException(errors);
        }
        return submissions;
    }

    private static TaskSubmission task(JsonNode node, String path, List<FieldError> errors) {
        unknownFields(node, TASK_FIELDS, path, errors);
        JsonNode id = node.get("id");
        JsonNode type = node.get("type");
        if (id != null && !id.isNull() && !id.isTextual()) {
            errors.add(new FieldError(path + "id", "must be a string"));
        }
        if (type == null || !type.isTextual()) {
            errors.add(new FieldError(path + "type", "is required and must be a string"));
        }
        JsonNode timeout = node.get("timeout");
        boolean wholeTimeout = timeout != null && timeout.isIntegralNumber() && timeout.canConvertToLong();
        if (timeout != null && !timeout.isNull() && !wholeTimeout) {
            errors.add(new FieldError(path + "timeout", "must be a whole number of milliseconds"));
        }
        JsonNode priority = node.get("priority");
        boolean level = priority != null && priority.isIntegralNumber() && priority.canConvertToInt();
        if (priority != null && !priority.isNull() && !level) {
            errors.add(new FieldError(path + "priority", Priority.RULE));
        }
        JsonNode group = node.get("group");
        if (group != null && !group.isNull() && !group.isTextual()) {
            errors.add(new FieldError(path + "group", "must be a string"));
        }
        return new TaskSubmission(id != null && id.isTextual() ? id.textValue() : null,
                type != null && type.isTextual() ? type.textValue() : null, node.get("payload"),
                wholeTimeout ? timeout.longValue() : null, level ? priority.intValue() : null,
                group != null && group.isTextual() ? group.textValue() : null);
    }

    private static void unknownFields(JsonNode node, Set<String> allowed, String path, List<FieldError> errors) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                errors.add(new FieldError(path + (name.length() > 64 ? name.substring(0, 64) + "..." : name), "unknown field"));
            }
        }
    }
}
