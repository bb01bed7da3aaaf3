package io.dedupq.tasks;

/**
 * The example task types of the dedupq service (payment, voucher). Their beans and endpoints
 * exist only in an application built with {@code dedupq.examples.enabled=true}; an application
 * that adds the framework jar gets none of them, nor their queues or Redis keys.
 */
public final class Examples {

    /** The build-time switch, {@code DedupqConfig.Examples#enabled}. */
    public static final String ENABLED = "dedupq.examples.enabled";

    private Examples() {
    }
}
