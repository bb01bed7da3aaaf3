package io.dedupq.handler;

/** One rejected input field, named by its JSON path (for example {@code payload.amount}). */
public record FieldError(String field, String message) {
}
