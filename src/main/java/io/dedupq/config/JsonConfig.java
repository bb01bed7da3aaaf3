package io.dedupq.config;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.module.paramnames.ParameterNamesModule;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Strict JSON for everything dedupq reads: unknown fields, scalar coercion ("12" for a string
 * field, 1 for a boolean) and trailing garbage are errors, and nesting is capped so a deeply
 * nested body is refused cheaply instead of exhausting the stack. It is a mapper of dedupq's
 * own ({@link DedupqJson}): the application's {@code ObjectMapper} is left as the application
 * configured it, and the envelope on the Redis list keeps its documented form whatever that is.
 */
@Singleton
public class JsonConfig {

    /** Deepest nesting accepted in any request or envelope. */
    public static final int MAX_NESTING = 32;

    @Produces
    @Singleton
    @DedupqJson
    ObjectMapper strict() {
        return newStrictMapper();
    }

    /** A new mapper with dedupq's settings; the application uses the {@link DedupqJson} bean, tests build their own. */
    public static ObjectMapper newStrictMapper() {
        ObjectMapper mapper = new ObjectMapper()
                .registerModule(new Jdk8Module()).registerModule(new JavaTimeModule()).registerModule(new ParameterNamesModule());
        mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING)
                .maxNumberLength(64)
                .build());
        mapper.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        mapper.enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN.mappedFeature());
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        mapper.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS);
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        // ALLOW_COERCION_OF_SCALARS does not cover text targets: without this, 42 or true where
        // an id, a currency or a reference belongs would be read as "42" or "true"
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }
}
