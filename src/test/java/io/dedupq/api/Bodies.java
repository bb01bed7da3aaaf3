package io.dedupq.api;

import static io.dedupq.api.RawJson.str;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Valid request bodies that the bad-input tests break one field at a time. */
final class Bodies {

    /** Size limit of a single-task or account/campaign body (dedupq.api.max-body-bytes). */
    static final int MAX_BODY_BYTES = 64 * 1024;

    /** Size limit of a batch body (dedupq.api.max-batch-body-bytes). */
    static final int MAX_BATCH_BODY_BYTES = 4 * 1024 * 1024;

    private Bodies() {
    }

    static RawJson payment(String accountId) {
        return RawJson.object().with("accountId", str(accountId)).with("amount", str("12.50"))
                .with("currency", str("EUR")).with("reference", str("order 1"));
    }

    static RawJson voucher() {
        return RawJson.object().with("campaignId", str("camp-1")).with("customerId", str("cust-1"));
    }

    static RawJson task(String id, String type, RawJson payload) {
        return RawJson.object().with("id", str(id)).with("type", str(type)).with("payload", payload);
    }

    /** {@code {"tasks":[...]}}; each element is written as its toString, so an element may be any JSON. */
    static RawJson batch(List<?> tasks) {
        return RawJson.object().with("tasks", RawJson.array(tasks));
    }

    static RawJson account() {
        return RawJson.object().with("currency", str("EUR")).with("balance", str("100.00"));
    }

    static RawJson campaign() {
        return RawJson.object().with("stock", "10").with("value", str("10.00")).with("currency", str("EUR"));
    }

    /** The body with spaces added before its closing brace until it is exactly {@code size} bytes: still valid JSON. */
    static byte[] paddedTo(RawJson body, int size) {
        String json = body.toString();
        int padding = size - json.getBytes(StandardCharsets.UTF_8).length;
        if (padding < 0) {
            throw new IllegalArgumentException("body is already " + (size - padding) + " bytes");
        }
        String padded = json.substring(0, json.length() - 1) + " ".repeat(padding) + "}";
        return padded.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
