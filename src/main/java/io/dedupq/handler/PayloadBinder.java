package io.dedupq.handler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Validator;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import io.dedupq.config.DedupqJson;

/**
 * Turns a JSON payload into a handler's payload record and validates it; the API does this
 * before enqueueing and the worker again before running (envelopes may come from anywhere).
 */
@ApplicationScoped
public class PayloadBinder {

    private final ObjectMapper mapper;
    private final Validator validator;
    /** A reader per payload type: binding through the mapper resolves the type on every call. */
    private final Map<Class<?>, ObjectReader> readers = new ConcurrentHashMap<>();
    /**
     * Per payload type, whether it declares any constraint (on itself, a component, a container
     * element, or through {@code @Valid}): validating a type without one still walks its metadata
     * for every task, a cost the enqueue profile showed.
     */
    private final Map<Class<?>, Boolean> constrained = new ConcurrentHashMap<>();

    public PayloadBinder(@DedupqJson ObjectMapper mapper, Validator validator) {
        this.mapper = mapper;
        this.validator = validator;
    }

    /** The outcome of binding: a value, or the fields that were wrong. */
    public record Bound<P>(P value, List<FieldError> errors) {
        public boolean ok() {
            return errors.isEmpty();
        }
    }

    /** Binds {@code node} to {@code type}; field names in errors start with {@code path}. */
    public <P> Bound<P> bind(JsonNode node, Class<P> type, String path) {
        if (node == null || !node.isObject()) {
            return new Bound<>(null, List.of(new FieldError(path, "must be a JSON object")));
        }
        P value;
        try {
            value = readers.computeIfAbsent(type, mapper::readerFor).readValue(node);
        } catch (JsonProcessingException e) {
            return new Bound<>(null, List.of(new FieldError(fieldOf(path, e), reason(e))));
        } catch (IOException | IllegalArgumentException e) {
            // reading a tree in memory: only binding errors (JsonProcessingException) are expected here
            return new Bound<>(null, List.of(new FieldError(path, "invalid value")));
        }
        if (!constrained.computeIfAbsent(type, t -> validator.getConstraintsForClass(t).isBeanConstrained())) {
            return new Bound<>(value, List.of());
        }
        List<FieldError> errors = validator.validate(value).stream()
                .map(v -> new FieldError(join(path, v.getPropertyPath().toString()), v.getMessage()))
                .sorted(Comparator.comparing(FieldError::field))
                .toList();
        return new Bound<>(errors.isEmpty() ? value : null, errors);
    }

    private static String fieldOf(String path, JsonProcessingException e) {
        if (!(e instanceof DatabindException databind)) {
            return path;
        }
        StringBuilder field = new StringBuilder(path);
        for (JsonMappingException.Reference ref : ((JsonMappingException) databind).getPath()) {
            if (ref.getFieldName() != null) {
                field.replace(0, field.length(), join(field.toString(), ref.getFieldName()));
            } else if (ref.getIndex() >= 0) {
                field.append('[').append(ref.getIndex()).append(']');
            }
        }
        return field.toString();
    }

    /** {@code payload} + {@code amount} is {@code payload.amount}; an empty path adds no dot. */
    public static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static String reason(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException) {
            return "unknown field";
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return "must be " + describe(mismatch.getTargetType());
        }
        return "invalid value";
    }

    private static String describe(Class<?> type) {
        if (type == String.class) {
            return "a string";
        }
        if (type == BigDecimal.class) {
            return "a decimal number";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        return "a JSON object";
    }
}
