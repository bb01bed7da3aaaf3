package io.dedupq.bench.app;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.quarkus.arc.properties.UnlessBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A handler that does no work except leaving evidence that it ran ({@link RunRecords}), so the
 * benchmark counts executions per task id. It never blocks, so it runs on the worker's event
 * loop unless {@code bench.noop-blocking=true} puts it on the queue's handler threads, the way a
 * handler that blocks runs. The -Psql build has {@link RowHandler} for this type instead.
 */
@UnlessBuildProperty(name = "dedupq.sql.enabled", stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class NoopHandler implements TaskHandler<NoopPayload> {

    private final RunRecords runs;
    private final boolean blocking;

    public NoopHandler(RunRecords runs, @ConfigProperty(name = "bench.noop-blocking", defaultValue = "false") boolean blocking) {
        this.runs = runs;
        this.blocking = blocking;
    }

    @Override
    public boolean blocking() {
        return blocking;
    }

    @Override
    public String type() {
        return "noop";
    }

    @Override
    public Class<NoopPayload> payloadType() {
        return NoopPayload.class;
    }

    @Override
    public Object handle(NoopPayload payload, ExecutionContext ctx) {
        runs.add(ctx.queue(), ctx.taskId());
        return null;
    }
}
