package io.dedupq.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.dedupq.handler.FieldError;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * An RFC 9457 problem document. {@code errors} names every rejected field when the problem is
 * about input; {@code type} is a stable URN per kind of problem that clients can switch on.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(int status, String kind, String title, String detail) {
        return new Problem("urn:dedupq:problem:" + kind, title, status, detail, List.of());
    }

    public static Problem invalid(List<FieldError> errors) {
        return new Problem("urn:dedupq:problem:invalid-request", "Invalid request", 400,
                errors.size() == 1 ? errors.get(0).field() + " " + errors.get(0).message()
                        : errors.size() + " fields are invalid", errors);
    }

    public static Problem invalid(String field, String message) {
        return invalid(List.of(new FieldError(field, message)));
    }
}
