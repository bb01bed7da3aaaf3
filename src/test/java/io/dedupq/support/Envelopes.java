package io.dedupq.support;

/** Envelopes written by hand, as a producer in another language would push them. */
public final class Envelopes {

    private Envelopes() {
    }

    public static String flaky(String id, int failures) {
        return flaky(id, "flaky", failures);
    }

    /** A first attempt (attempt 0) of a task that fails {@code failures} times, of type flaky or slow-retry. */
    public static String flaky(String id, String type, int failures) {
        return "{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"payload\":{\"failures\":" + failures
                + "},\"attempt\":0,\"enqueuedAt\":1}";
    }

    /** A first attempt of a flaky task that succeeds after sleeping {@code sleepMillis}. */
    public static String flakySleeping(String id, int sleepMillis) {
        return "{\"id\":\"" + id + "\",\"type\":\"flaky\",\"payload\":{\"failures\":0,\"sleepMillis\":" + sleepMillis
                + "},\"attempt\":0,\"enqueuedAt\":1}";
    }

    public static String voucher(String id, String campaignId, String customerId) {
        return "{\"id\":\"" + id + "\",\"type\":\"voucher\",\"payload\":{\"campaignId\":\"" + campaignId
                + "\",\"customerId\":\"" + customerId + "\"},\"attempt\":0,\"enqueuedAt\":1}";
    }
}
