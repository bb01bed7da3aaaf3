package io.dedupq.support;

import jakarta.inject.Singleton;

/**
 * The flaky task as type "governed", on a queue whose test profile sets every limit GET
 * /api/queues reports: a rate limit, group concurrency, a timeout, two slots.
 */
@Singleton
public class GovernedHandler extends FlakyVariant {

    public static final String TYPE = "governed";

    public GovernedHandler(FlakyHandler flaky) {
        super(TYPE, flaky);
    }
}
