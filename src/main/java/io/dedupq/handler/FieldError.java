package io.dedupq.handler;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One rejected input field, named by its JSON path (for example {@code payload.amount}). */
@RegisterForReflection
public record FieldError(String field, String message) {
}
