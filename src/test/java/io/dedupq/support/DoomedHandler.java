package io.dedupq.support;

import jakarta.inject.Singleton;

/**
 * The flaky task as type "doomed" on a queue of its own (one handler at a time, two attempts in
 * the test profile), whose dead list and pending list only the dead-letter and cancel tests
 * use.
 */
@Singleton
public class DoomedHandler extends FlakyVariant {

    public static final String TYPE = "doomed";

    public DoomedHandler(FlakyHandler flaky) {
        super(TYPE, flaky);
    }
}
