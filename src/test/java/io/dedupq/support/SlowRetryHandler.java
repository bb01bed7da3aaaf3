package io.dedupq.support;

import jakarta.inject.Singleton;

/**
 * The flaky task as type "slow-retry" on its own queue whose test-profile backoff is seconds
 * long, so a test can act while a retry waits in {@code delayed}.
 */
@Singleton
public class SlowRetryHandler extends FlakyVariant {

    public static final String TYPE = "slow-retry";

    public SlowRetryHandler(FlakyHandler flaky) {
        super(TYPE, flaky);
    }
}
