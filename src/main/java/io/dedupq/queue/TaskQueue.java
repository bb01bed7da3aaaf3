package io.dedupq.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqConfig;
import io.dedupq.config.DedupqJson;
import io.dedupq.handler.FieldError;
import io.dedupq.handler.HandlerRegistry;
import io.dedupq.handler.PayloadBinder;
import io.dedupq.handler.TaskHandler;
import io.dedupq.metrics.TaskMetrics;
import io.dedupq.tracing.EnqueueSpans;
import io.dedupq.tracing.TaskTracing;
import io.smallrye.mutiny.Uni;
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
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/**
 * The producer side: validates tasks, routes them to their queue and enqueues each id once.
 * Inject it to enqueue in-process; the HTTP API uses it too, so both give the same answers. A task
 * without an id gets a random UUID, unless its queue sets {@code require-id}; one without a
 * priority gets the default level ({@link Priority}).
 *
 * <p>Errors: {@link InvalidTaskException} (its {@code errors()} name each wrong field; nothing was
 * enqueued) and {@link StoreUnavailableException} (Redis did not answer in time; a write may or
 * may not have happened, so retry with the same id), whose subclasses {@link RedisFullException}
 * and {@link TooFewReplicasException} say Redis refused the write (out of memory; short of the
 * replicas its {@code min-replicas-to-write} asks for) and wrote nothing. Thrown from an
 * application's own REST endpoint, they become problem+json answers (400, 503 and 507).
 */
@ApplicationScoped
public class TaskQueue {

    private static final MessageDigest SHA_256 = sha256();

    private final HandlerRegistry registry;
    private final PayloadBinder binder;
    private final ObjectMapper mapper;
    private final QueueStore store;
    private final Clock clock;
    private final TaskMetrics metrics;
    private final TaskCanceller canceller;
    private final DedupqConfig config;
    private final TaskTracing tracing;
    private final QueuePauses pauses;

    public TaskQueue(HandlerRegistry registry, PayloadBinder binder, @DedupqJson ObjectMapper mapper, QueueStore store,
            Clock clock, TaskMetrics metrics, TaskCanceller canceller, DedupqConfig config, TaskTracing tracing,
            QueuePauses pauses) {
        this.registry = registry;
        this.pauses = pauses;
        this.tracing = tracing;
        this.config = config;
        this.binder = binder;
        this.mapper = mapper;
        this.store = store;
        this.clock = clock;
        this.metrics = metrics;
        this.canceller = canceller;
    }

    /** A validated task, ready for enqueue.lua; {@code priority} is its level ({@link Priority}). */
    public record Prepared(String id, String type, String queue, String digest, String envelope, int priority) {

        /** As enqueue.lua takes it. */
        public EnqueueScript.Task task() {
            return new EnqueueScript.Task(id, type, digest, envelope, priority);
        }
    }

    /**
     * Enqueues a task of {@code type} whose payload is {@code payload} (the handler's payload
     * record, or a JSON tree); {@code id} null means a random UUID, or a refusal where the queue sets {@code require-id}.
     */
    public EnqueueResult enqueue(String id, String type, Object payload) {
        return enqueue(id, type, payload, Priority.DEFAULT);
    }

    /**
     * {@link #enqueue(String, String, Object)} at a priority level from {@value Priority#LOWEST} to
     * {@value Priority#HIGHEST} (higher runs first; {@value Priority#DEFAULT} is the default).
     */
    public EnqueueResult enqueue(String id, String type, Object payload, int priority) {
        JsonNode tree = payload instanceof JsonNode node ? node : mapper.valueToTree(payload);
        return enqueue(new TaskSubmission(id, type, tree).withPriority(priority));
    }

    public EnqueueResult enqueue(TaskSubmission submission) {
        return enqueueAll(List.of(submission)).get(0);
    }

    /**
     * Validates every task first; one invalid task refuses the whole list and nothing is
     * enqueued. Results come back in the order of the submissions. Blocks: call it from a worker
     * thread; on an event loop use {@link #enqueueAllAsync}.
     */
    public List<EnqueueResult> enqueueAll(List<TaskSubmission> submissions) {
        // the guard's timeout ends every wait, so none is added here
        return enqueueAllAsync(submissions).await().indefinitely();
    }

    /** {@link #enqueue(TaskSubmission)} without blocking. */
    public Uni<EnqueueResult> enqueueAsync(TaskSubmission submission) {
        return enqueueAllAsync(List.of(submission)).map(results -> results.get(0));
    }

    /**
     * {@link #enqueueAll} without blocking: the returned {@link Uni} fails with the same
     * exceptions, and no thread waits for Redis.
     */
    public Uni<List<EnqueueResult>> enqueueAllAsync(List<TaskSubmission> submissions) {
        EnqueueSpans spans = tracing.on() ? tracing.enqueueSpans() : null;
        List<Prepared> prepared;
        try {
            prepared = prepareAll(submissions, spans);
        } catch (InvalidTaskException e) {
            if (spans != null) {
                spans.failed(e);
            }
            return Uni.createFrom().failure(e);
        }
        Uni<List<EnqueueResult>> results = store.enqueue(prepared)
                .onFailure(FaultToleranceException.class).transform(StoreUnavailableException::new)
                .invoke(answers -> countAccepted(prepared, answers));
        return spans == null ? results : results.invoke(spans::answered).onFailure().invoke(spans::failed);
    }

    /** The accepted tasks, counted once per run of tasks of one queue and type (a batch is usually one run). */
    private void countAccepted(List<Prepared> prepared, List<EnqueueResult> results) {
        int run = 0;
        for (int i = 0; i < results.size(); i++) {
            Prepared task = prepared.get(i);
            run += results.get(i).accepted() ? 1 : 0;
            Prepared next = i + 1 < prepared.size() ? prepared.get(i + 1) : null;
            if (next == null || !next.type().equals(task.type()) || !next.queue().equals(task.queue())) {
                if (run > 0) {
                    metrics.enqueued(task.queue(), task.type(), run);
                }
                run = 0;
            }
        }
    }

    /**
     * Validates every task, and gives each its final id (a UUID where it had none and may); nothing
     * is enqueued. One invalid task throws {@link InvalidTaskException} naming every wrong field.
     */
    public List<Prepared> prepareAll(List<TaskSubmission> submissions) {
        return prepareAll(submissions, null);
    }

    /** {@link #prepareAll(List)}, starting each task's enqueue span in {@code spans} (null: tracing off). */
    private List<Prepared> prepareAll(List<TaskSubmission> submissions, EnqueueSpans spans) {
        boolean single = submissions.size() == 1;
        List<Prepared> prepared = new ArrayList<>(submissions.size());
        List<FieldError> errors = new ArrayList<>();
        for (int i = 0; i < submissions.size(); i++) {
            prepare(submissions.get(i), single ? "" : "tasks[" + i + "].", prepared, errors, spans);
        }
        if (!errors.isEmpty()) {
            throw new InvalidTaskException(errors);
        }
        return prepared;
    }

    /** The task's status, attempts and result; empty when no queue knows the id. */
    public Optional<TaskView> status(String id) {
        return TaskIds.valid(id) ? guarded(() -> store.find(id)) : Optional.empty();
    }

    /**
     * Cancels a queued, retrying or running task; empty when no queue knows the id. A running
     * task ends cancelled at once and its handler is told ({@code ExecutionContext.cancelled()},
     * an interrupt); whatever it returns later is discarded. A finished task is left as it is
     * ({@code cancelled} false, {@code status} says why).
     */
    public Optional<TaskCanceller.Cancelled> cancel(String id) {
        return TaskIds.valid(id) ? guarded(() -> canceller.cancel(id)) : Optional.empty();
    }

    public List<QueueStats> stats() {
        return guarded(store::stats);
    }

    /**
     * Pauses {@code queue} across the fleet: workers start none of its tasks until {@link #resume},
     * running ones finish, enqueue still accepts. The state is in Redis and outlives pods;
     * pausing a paused queue changes nothing.
     *
     * @throws IllegalArgumentException when no handler serves {@code queue}
     */
    public void pause(String queue) {
        setPaused(queue, true);
    }

    /** Lets workers claim from {@code queue} again (within one claim cycle); resuming a running queue changes nothing. */
    public void resume(String queue) {
        setPaused(queue, false);
    }

    private void setPaused(String queue, boolean paused) {
        if (!registry.queues().contains(queue)) {
            throw new IllegalArgumentException("no queue named " + queue + "; known queues: "
                    + String.join(", ", registry.queues()));
        }
        guarded(() -> {
            pauses.set(queue, paused);
            return null;
        });
    }

    /** The guard's own exceptions (a timeout, an open breaker) as what they mean to a caller: Redis unavailable. */
    private static <T> T guarded(Supplier<T> call) {
        try {
            return call.get();
        } catch (FaultToleranceException e) {
            throw new StoreUnavailableException(e);
        }
    }

    private void prepare(TaskSubmission task, String path, List<Prepared> out, List<FieldError> errors, EnqueueSpans spans) {
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
        if (task.timeout() != null && (task.timeout() < 1 || task.timeout() > TaskSubmission.MAX_TIMEOUT_MILLIS)) {
            errors.add(new FieldError(path + "timeout", "must be 1 to " + TaskSubmission.MAX_TIMEOUT_MILLIS
                    + " milliseconds"));
        }
        int priority = task.priority() == null ? Priority.DEFAULT : task.priority();
        if (!Priority.valid(priority)) {
            errors.add(new FieldError(path + "priority", Priority.RULE));
        }
        if (handler.isEmpty()) {
            errors.add(new FieldError(path + "type", (task.type() == null ? "is required" : "is not a known task type")
                    + "; known types: " + String.join(", ", registry.types())));
            return;
        }
        if (task.group() != null && !TaskIds.valid(task.group())) {
            errors.add(new FieldError(path + "group", TaskIds.RULE));
        }
        PayloadBinder.Bound<?> bound = binder.bind(task.payload(), handler.get().payloadType(), path + "payload");
        errors.addAll(bound.errors());
        if (errors.size() > before) {
            return;
        }
        String group = task.group() != null ? task.group() : groupOf(handler.get(), bound.value());
        if (group != null && !TaskIds.valid(group)) {
            errors.add(new FieldError(path + "group", "the handler of " + task.type() + " made the group '" + group
                    + "' of this payload, which breaks the rule: " + TaskIds.RULE));
            return;
        }
        try {
            // the record's own form (its defaults, its number formats) is what the digest and the worker see
            String payload = mapper.writeValueAsString(mapper.valueToTree(bound.value()));
            // the trace context, the timeout and the priority are not part of the digest: a
            // resubmission from another trace, with another timeout or more urgently, is the same task
            Envelope.Trace trace = spans == null ? null : spans.start(id, task.type(), queue);
            out.add(new Prepared(id, task.type(), queue, digest(task.type(), payload),
                    Envelope.firstAttemptJson(id, task.type(), payload, clock.millis(), trace, task.timeout(), priority,
                            group), priority));
        } catch (JsonProcessingException e) {
            errors.add(new FieldError(path + "payload", "cannot be serialised"));
        }
    }

    @SuppressWarnings("unchecked")
    private static String groupOf(TaskHandler<?> handler, Object payload) {
        // the payload was bound to this handler's own payload type
        return ((TaskHandler<Object>) handler).group(payload);
    }

    /** SHA-256 of type, a newline and the payload's JSON, in hex. */
    private static String digest(String type, String payload) {
        MessageDigest sha;
        try {
            // a copy of one instance: looking the algorithm up among the providers for every task cost more than hashing
            sha = (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
        sha.update(type.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) '\n');
        return HexFormat.of().formatHex(sha.digest(payload.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
