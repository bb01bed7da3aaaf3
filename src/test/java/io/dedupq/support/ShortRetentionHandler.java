package io.dedupq.support;

import jakarta.inject.Singleton;

/**
 * The flaky task as type "short-retention", on a queue of its own whose test configuration sets
 * a result retention of 1 s and a dedup window of 6 s (RetentionApiTest), so that test runs in the default test app.
 */
@Singleton
public class ShortRetentionHandler extends FlakyVariant {

    public static final String TYPE = "short-retention";

    public ShortRetentionHandler(FlakyHandler flaky) {
        super(TYPE, flaky);
    }
}
