package io.dedupq.queue;

import io.dedupq.handler.FieldError;
import java.util.List;

/** A task was refused before anything was written; the errors name the fields. */
public class InvalidTaskException extends RuntimeException {

    private final transient List<FieldError> errors;

    public InvalidTaskException(List<FieldError> errors) {
        super("invalid task: " + errors);
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
