package io.dedupq.support;

import jakarta.inject.Singleton;

/**
 * The flaky task as type "rate-limited", on a queue of its own whose test configuration sets
 * a rate limit of 2 starts per second (RateLimitApiTest), so that test runs in the default test app.
 */
@Singleton
public class RateLimitedHandler extends FlakyVariant {

    public static final String TYPE = "rate-limited";

    public RateLimitedHandler(FlakyHandler flaky) {
        super(TYPE, flaky);
    }
}
