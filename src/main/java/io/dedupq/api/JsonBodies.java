package io.dedupq.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqJson;
import io.dedupq.handler.PayloadBinder;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Reads request bodies by hand rather than through automatic binding, so that every way a body
 * can be wrong — too big, empty, not JSON, too deep, wrong types, bad values — ends in a
 * problem document that names the field.
 */
@ApplicationScoped
public class JsonBodies {

    private final ObjectMapper mapper;
    private final PayloadBinder binder;

    public JsonBodies(@DedupqJson ObjectMapper mapper, PayloadBinder binder) {
        this.mapper = mapper;
        this.binder = binder;
    }

    /** Parses a body of at most {@code limit} bytes into a JSON object. */
    public JsonNode object(byte[] body, int limit) {
        if (body == null || body.length == 0) {
            throw new ProblemException(Problem.invalid("body", "is empty; a JSON object is required"));
        }
        if (body.length > limit) {
            throw new ProblemException(Problem.of(413, "body-too-large", "Request body too large",
                    "the body has " + body.length + " bytes; at most " + limit + " are accepted"));
        }
        JsonNode node;
        try {
            node = mapper.readTree(body);
        } catch (StreamConstraintsException e) {
            throw new ProblemException(Problem.invalid("body", "is nested too deeply or has too long a number"));
        } catch (JsonProcessingException e) {
            throw new ProblemException(Problem.invalid("body", "is not valid JSON (line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"));
        } catch (java.io.IOException e) {
            throw new ProblemException(Problem.invalid("body", "cannot be read"));
        } catch (NumberFormatException e) {
            // Jackson lets this through unwrapped for a number it cannot hold, such as 1e2147483648
            throw new ProblemException(Problem.invalid("body", "has a number out of range"));
        }
        if (node == null || !node.isObject()) {
            throw new ProblemException(Problem.invalid("body", "must be a JSON object"));
        }
        return node;
    }

    /** Parses and binds a body to a validated record. */
    public <T> T bind(byte[] body, int limit, Class<T> type) {
        PayloadBinder.Bound<T> bound = binder.bind(object(body, limit), type, "");
        if (!bound.ok()) {
            throw new ProblemException(Problem.invalid(bound.errors()));
        }
        return bound.value();
    }
}
