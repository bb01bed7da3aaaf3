package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The flaky task again, as type "long-running" on its own queue whose test-profile lock TTL is
 * short (1.5 s), so a handler that sleeps several TTLs depends on the lock watchdog. Executions
 * are recorded by {@link FlakyHandler}.
 */
@ApplicationScoped
public class LongRunningHandler implements TaskHandler<FlakyHandler.Payload> {

    public static final String TYPE = "long-running";

    private final FlakyHandler flaky;

    public LongRunningHandler(FlakyHandler flaky) {
        this.flaky = flaky;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Class<FlakyHandler.Payload> payloadType() {
        return FlakyHandler.Payload.class;
    }

    @Override
    public Object handle(FlakyHandler.Payload payload, ExecutionContext ctx) throws Exception {
        return flaky.handle(payload, ctx);
    }
}
