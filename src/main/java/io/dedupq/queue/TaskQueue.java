package io.dedupq.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqConfig;
import io.dedupq.handler.FieldError;
import io.dedupq.handler.HandlerRegistry;
import io.dedupq.handler.PayloadBinder;
import io.dedupq.handler.TaskHandler;
import io.dedupq.metrics.TaskMetrics;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The producer side: validates tasks, routes them to their queue and enqueues each id once.
 * Inject it to enqueue in-process; the HTTP API uses it too. A task without an id gets a random
 * UUID, unless its queue sets {@code require-id}.
 */
@ApplicationScoped
public class TaskQueue {

    private final HandlerRegistry registry;
    private final PayloadBinder binder;
    private final ObjectMapper mapper;
    private final QueueStore store;
    private final Clock clock;
    private final TaskMetrics metrics;
    private final DedupqConfig config;

    public TaskQueue(HandlerRegistry registry, PayloadBinder binder, ObjectMapper mapper, QueueStore store, Clock clock,
            TaskMetrics metrics, DedupqConfig config) {
        this.registry = registry;
        this.config = config;
        this.binder = binder;
        this.mapper = mapper;
        this.store = store;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** A validated task, ready for enqueue.lua. */
    public record Prepared(String id, String type, String queue, String digest, String envelope) {
    }

    public EnqueueResult enqueue(TaskSubmission submission) {
        return enqueueAll(List.of(submission)).get(0);
    }

    /**
     * Validates every task first; one invalid task refuses the whole list and nothing is
     * enqueued. Results come back in the order of the submissions.
     */
    public List<EnqueueResult> enqueueAll(List<TaskSubmission> submissions) {
        boolean single = submissions.size() == 1;
        List<Prepared> prepared = new ArrayList<>(submissions.size());
        List<FieldError> errors = new ArrayList<>();
        for (int i = 0; i < submissions.size(); i++) {
            prepare(submissions.get(i), single ? "" : "tasks[" + i + "].", prepared, errors);
        }
        if (!errors.isEmpty()) {
            throw new InvalidTaskException(errors);
        }
        List<EnqueueResult> results = store.enqueue(prepared);
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i).accepted()) {
                metrics.enqueued(prepared.get(i).queue(), prepared.get(i).type());
            }
        }
        return results;
    }

    public Optional<TaskView> status(String id) {
        return TaskIds.valid(id) ? store.find(id) : Optional.empty();
    }

    public List<QueueStats> stats() {
        return store.stats();
    }

    private void prepare(TaskSubmission task, String path, List<Prepared> out, List<FieldError> errors) {
        int before = errors.size();
        Optional<TaskHandler<?>> handler = task.type() == null ? Optional.empty() : registry.handler(task.type());
        String queue = handler.isPresent() ? registry.queueOf(task.type()) : null;
        String id = task.id();
        if (id == null && queue != null && config.queues().get(queue).requireId()) {
            errors.add(new FieldError(path + "id", "is required by queue " + queue
                    + ": send an id of your own, and the same id again when you retry"));
        } else if (id == null) {
            id = UUID.randomUUID().toString();
        } else if (!TaskIds.valid(id)) {
            errors.add(new FieldError(path + "id", TaskIds.RULE));
        }
        if (handler.isEmpty()) {
            errors.add(new FieldError(path + "type", (task.type() == null ? "is required" : "is not a known task type")
                    + "; known types: " + String.join(", ", registry.types())));
            return;
        }
        PayloadBinder.Bound<?> bound = binder.bind(task.payload(), handler.get().payloadType(), path + "payload");
        errors.addAll(bound.errors());
        if (errors.size() > before) {
            return;
        }
        JsonNode payload = mapper.valueToTree(bound.value());
        Envelope envelope = new Envelope(id, task.type(), payload, 0, clock.millis());
        try {
            out.add(new Prepared(id, task.type(), queue,
                    digest(task.type() + "\n" + mapper.writeValueAsString(payload)),
                    mapper.writeValueAsString(envelope)));
        } catch (JsonProcessingException e) {
            errors.add(new FieldError(path + "payload", "cannot be serialised"));
        }
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
