package io.dedupq.tracing;

import io.dedupq.queue.TaskStatus;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;

/** The {@code handle} span of one execution, from {@link TaskTracing#execution}: current while the handler runs. */
public final class ExecutionSpan {

    private final Span span;

    ExecutionSpan(Span span) {
        this.span = span;
    }

    /** Makes the span the current one on this thread, so that the handler's own spans are its children. */
    public Scope makeCurrent() {
        return span.makeCurrent();
    }

    /** Ends the span with the execution's outcome; anything but success is an error, {@code detail} its message. */
    public void end(TaskStatus outcome, String detail) {
        span.setAttribute(TaskTracing.OUTCOME, outcome.wire());
        if (outcome != TaskStatus.SUCCEEDED) {
            span.setStatus(StatusCode.ERROR, detail);
        }
        span.end();
    }
}
