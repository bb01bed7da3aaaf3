package io.dedupq.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dedupq.config.DedupqConfig;
import io.dedupq.config.DedupqJson;
import io.dedupq.handler.AlreadyApplied;
import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.HandlerRegistry;
import io.dedupq.handler.PayloadBinder;
import io.dedupq.handler.PermanentFailure;
import io.dedupq.handler.TaskHandler;
import io.dedupq.metrics.TaskMetrics;
import io.dedupq.queue.Envelope;
import io.dedupq.queue.Partition;
import io.dedupq.queue.QueuePartitions;
import io.dedupq.queue.TaskStatus;
import io.dedupq.tracing.ExecutionSpan;
import io.dedupq.tracing.TaskTracing;
import io.opentelemetry.context.Scope;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Runs one claimed copy: binds and validates its payload, calls the handler, and turns what
 * happened into an outcome. A handler's exception is an outcome, never a dead worker.
 */
@ApplicationScoped
public class TaskRunner {

    private static final Logger LOG = Logger.getLogger(TaskRunner.class);
    private static final int MAX_ERROR_LENGTH = 1000;

    private final HandlerRegistry registry;
    private final PayloadBinder binder;
    private final Watchdog watchdog;
    private final ObjectMapper mapper;
    private final ObjectReader envelopeReader;
    private final QueuePartitions partitions;
    private final Clock clock;
    private final TaskMetrics metrics;
    private final TaskTracing tracing;
    private final ProgressWriter progressWriter;

    public TaskRunner(HandlerRegistry registry, PayloadBinder binder, Watchdog watchdog,
            @DedupqJson ObjectMapper mapper, QueuePartitions partitions, Clock clock, TaskMetrics metrics, TaskTracing tracing,
            ProgressWriter progressWriter) {
        this.tracing = tracing;
        this.progressWriter = progressWriter;
        this.registry = registry;
        this.binder = binder;
        this.watchdog = watchdog;
        this.mapper = mapper;
        this.envelopeReader = mapper.readerFor(Envelope.class);
        this.partitions = partitions;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** False when the claim's handler never blocks and runs on the event loop ({@link TaskHandler#blocking()}). */
    public boolean blocking(Claim claim) {
        return registry.handler(claim.type()).map(TaskHandler::blocking).orElse(true);
    }

    /** Runs the copy on the calling thread and says what came of it; its owner records the outcome. */
    public Outcome run(Partition partition, Claim claim) {
        long started = clock.millis();
        Envelope envelope;
        try {
            envelope = envelopeReader.readValue(claim.envelope());
        } catch (JsonProcessingException | RuntimeException e) {
            // Lua's JSON parser accepted it (the id is known) but it does not bind: a number too
            // large, nesting too deep, a field of the wrong type
            envelope = null;
        }
        metrics.started(partition, envelope);
        // null with tracing off: nothing else of tracing on this path
        ExecutionSpan span = tracing.on() ? tracing.execution(partition, claim.id(), envelope, started) : null;
        Verdict verdict;
        try (Scope current = span == null ? null : span.makeCurrent()) {
            verdict = envelope == null ? fail(partition, null, claim, TaskStatus.FAILED, "malformed envelope", false)
                    : execute(partition, envelope, claim);
        }
        if (span != null) {
            span.end(verdict.status, verdict.detail);
        }
        String type = typeOf(envelope);
        int attempt = envelope == null ? 0 : envelope.attempt();
        // written here, not where the outcome is recorded: that is the event loop, which must not wait for a log
        logOutcome(partition, type, attempt, claim, verdict.status, started);
        return new Outcome(claim, type, attempt, verdict.status, verdict.detail, verdict.next, verdict.delay,
                verdict.lossCounted);
    }

    /** Counts an outcome once claim.lua answered for it. */
    public void recorded(Partition partition, Outcome outcome, ClaimScript.Recorded answer) {
        if (answer == ClaimScript.Recorded.CANCELLED) {
            metrics.cancelledWhileRunning(partition, outcome.type());
            LOG.infof("task=%s queue=%s type=%s attempt=%d outcome=%s discarded: the task was cancelled while it ran",
                    outcome.claim().id(), partition, outcome.type(), outcome.attempt(), outcome.status().wire());
            return;
        }
        boolean recorded = answer == ClaimScript.Recorded.RECORDED;
        metrics.finished(partition, outcome.type(), outcome.status().wire(), recorded, outcome.lossCounted());
        if (!recorded) {
            LOG.warnf("task=%s queue=%s type=%s attempt=%d outcome=%s not recorded: a newer execution owns the task",
                    outcome.claim().id(), partition, outcome.type(), outcome.attempt(), outcome.status().wire());
        }
    }

    /**
     * What an execution comes to, before it is recorded.
     *
     * @param detail      the result JSON (succeeded, may be empty) or the error message
     * @param next        retrying: the next envelope; failed/dead: the dead-letter record
     * @param delay       retrying: in how long the next attempt is due (ms)
     * @param lossCounted the watchdog already counted this execution's lost lock
     */
    private record Verdict(TaskStatus status, String detail, String next, long delay, boolean lossCounted) {
    }

    /**
     * One line per outcome: INFO when the task succeeded, WARN otherwise, so that setting this
     * class's category to WARN keeps the lines that need a look and saves the cost of the rest.
     */
    private void logOutcome(Partition partition, String type, int attempt, Claim claim, TaskStatus outcome, long started) {
        Logger.Level level = outcome == TaskStatus.SUCCEEDED ? Logger.Level.INFO : Logger.Level.WARN;
        if (LOG.isEnabled(level)) {
            // built by hand: printf-style formatting was the largest cost of a no-op task's line
            LOG.log(level, new StringBuilder(160).append("task=").append(claim.id()).append(" queue=").append(partition.name())
                    .append(" type=").append(type).append(" attempt=").append(attempt).append(" outcome=")
                    .append(outcome.wire()).append(" duration_ms=").append(clock.millis() - started).toString());
        }
    }

    /** Runs the handler and says what came of it. */
    private Verdict execute(Partition partition, Envelope envelope, Claim claim) {
        TaskHandler<?> handler = registry.handler(envelope.type()).orElse(null);
        if (handler == null) {
            return fail(partition, envelope, claim, TaskStatus.FAILED, "no handler for task type '" + envelope.type() + "'", false);
        }
        PayloadBinder.Bound<?> bound = binder.bind(envelope.payload(), handler.payloadType(), "payload");
        if (!bound.ok()) {
            return fail(partition, envelope, claim, TaskStatus.FAILED, "invalid payload: "
                    + bound.errors().stream().map(e -> e.field() + " " + e.message()).collect(Collectors.joining("; ")),
                    false);
        }
        long timeout = timeoutMillis(partition, envelope);
        // the lock is kept alive only while the handler runs: the watch is closed when it returns (no timeout
        // or cancel after that), then the last progress is written, and only then the outcome
        Watchdog.Watch watch = watchdog.watch(partition, envelope.type(), claim, timeout);
        Verdict verdict;
        try (ProgressWriter.Reporter progress = progressWriter.reporter(partition, claim); watch) {
            ExecutionContext ctx = new ExecutionContext(claim.id(), partition.queue(), envelope.attempt(),
                    claim.fence(), watch, progress);
            Object result = metrics.timeHandler(partition, envelope.type(), () -> invoke(handler, bound.value(), ctx));
            verdict = new Verdict(TaskStatus.SUCCEEDED, toJson(result), null, 0, watch.lockLost());
        } catch (AlreadyApplied e) {
            verdict = new Verdict(TaskStatus.SUCCEEDED, e.outcome(), null, 0, watch.lockLost());
        } catch (PermanentFailure e) {
            verdict = fail(partition, envelope, claim, TaskStatus.FAILED, describe(e), watch.lockLost());
        } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
            verdict = retryOrBury(partition, envelope, claim, describe(e), watch.lockLost());
        }
        // past its timeout the attempt fails as retryable, whatever the handler made of the interrupt
        return watch.timedOut() && !watch.cancelled()
                ? retryOrBury(partition, envelope, claim, "timed out after " + timeout + " ms", watch.lockLost())
                : verdict;
    }

    /** The task's own timeout, else the queue's; 0 for none. */
    private long timeoutMillis(Partition partition, Envelope envelope) {
        if (envelope.timeout() != null) {
            return envelope.timeout();
        }
        return partitions.settings(partition).timeout().map(Duration::toMillis).orElse(0L);
    }

    @SuppressWarnings("unchecked")
    private static <P> Object invoke(TaskHandler<P> handler, Object payload, ExecutionContext ctx) throws Exception {
        return handler.handle((P) payload, ctx);
    }

    private Verdict retryOrBury(Partition partition, Envelope envelope, Claim claim, String error, boolean lossCounted) {
        DedupqConfig.QueueConfig settings = partitions.settings(partition);
        if (envelope.attempt() + 1 >= settings.maxAttempts()) {
            return fail(partition, envelope, claim, TaskStatus.DEAD, error, lossCounted);
        }
        // a duration: claim.lua adds it to Redis's clock, the one promote.lua compares with
        long delay = new Backoff(settings.backoffBase(), settings.backoffMax()).delay(envelope.attempt()).toMillis();
        return new Verdict(TaskStatus.RETRYING, error, write(envelope.nextAttempt()), delay, lossCounted);
    }

    /** Dead-letters the copy; {@code envelope} is null when the copy could not be read. */
    private Verdict fail(Partition partition, Envelope envelope, Claim claim, TaskStatus outcome, String error, boolean lossCounted) {
        ObjectNode deadLetter = mapper.createObjectNode();
        deadLetter.put("id", claim.id());
        deadLetter.put("type", envelope == null ? null : envelope.type());
        deadLetter.put("queue", partition.queue());
        deadLetter.put("status", outcome.wire());
        deadLetter.put("attempt", envelope == null ? 0 : envelope.attempt());
        deadLetter.put("error", error);
        deadLetter.put("failedAt", clock.millis());
        deadLetter.put("envelope", claim.envelope());
        return new Verdict(outcome, error, deadLetter.toString(), 0, lossCounted);
    }

    private String toJson(Object result) {
        if (result == null) {
            return "";
        }
        try {
            return mapper.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            return mapper.getNodeFactory().textNode(String.valueOf(result)).toString();
        }
    }

    private String write(Envelope envelope) {
        try {
            return mapper.writeValueAsString(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("envelope of " + envelope.id() + " cannot be written", e);
        }
    }

    private static String typeOf(Envelope envelope) {
        return envelope == null ? TaskMetrics.UNKNOWN_TYPE : envelope.type();
    }

    private static String describe(Throwable e) {
        String text = e instanceof PermanentFailure ? e.getMessage() : e.getClass().getSimpleName() + ": " + e.getMessage();
        return text.length() > MAX_ERROR_LENGTH ? text.substring(0, MAX_ERROR_LENGTH) : text;
    }
}
