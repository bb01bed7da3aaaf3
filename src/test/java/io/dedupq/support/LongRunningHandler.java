package io.dedupq.support;

import jakarta.inject.Singleton;

/**
 * The flaky task as type "long-running" on its own queue whose test-profile lock TTL is short
 * (3 s), so a handler that sleeps several TTLs depends on the lock watchdog.
 */
@Singleton
public class LongRunningHandler extends FlakyVariant {

    public static final String TYPE = "long-running";

    public LongRunningHandler(FlakyHandler flaky) {
        super(TYPE, flaky);
    }
}
