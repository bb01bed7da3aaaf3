package io.dedupq.support;

import jakarta.inject.Singleton;

/**
 * The flaky task as type "one-per-group", on a queue of its own whose test configuration sets
 * group concurrency 1 (GroupApiTest), so that test runs in the default test app.
 */
@Singleton
public class OnePerGroupHandler extends FlakyVariant {

    public static final String TYPE = "one-per-group";

    public OnePerGroupHandler(FlakyHandler flaky) {
        super(TYPE, flaky);
    }
}
