package io.dedupq.support;

import jakarta.inject.Singleton;

/** The flaky task as type "parted", on a queue the test profile splits into 4 partitions. */
@Singleton
public class PartedHandler extends FlakyVariant {

    public static final String TYPE = "parted";

    public PartedHandler(FlakyHandler flaky) {
        super(TYPE, flaky);
    }
}
