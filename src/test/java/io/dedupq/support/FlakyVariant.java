package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;

/**
 * The flaky task under another type, so it runs on its own queue with its own test-profile
 * settings. Executions are recorded by {@link FlakyHandler}. Subclasses are {@code @Singleton}
 * beans: a client proxy would need a no-args constructor this class does not have.
 */
public abstract class FlakyVariant implements TaskHandler<FlakyHandler.Payload> {

    private final String type;
    private final FlakyHandler flaky;

    protected FlakyVariant(String type, FlakyHandler flaky) {
        this.type = type;
        this.flaky = flaky;
    }

    @Override
    public String type() {
        return type;
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
