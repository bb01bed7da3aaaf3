package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The flaky task again, as type "slow-retry" on its own queue whose test-profile backoff is
 * seconds long, so a test can act while a retry waits in {@code delayed}. Executions are
 * recorded by {@link FlakyHandler}.
 */
@ApplicationScoped
public class SlowRetryHandler implements TaskHandler<FlakyHandler.Payload> {

    public static final String TYPE = "slow-retry";

    private final FlakyHandler flaky;

    public SlowRetryHandler(FlakyHandler flaky) {
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
