package io.dedupq.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.JsonConfig;
import jakarta.validation.Valid;
import jakarta.validation.Validation;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.List;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * PayloadBinder on its own, with the app's strict JSON settings and Bean Validation: a payload
 * binds to its record or is refused with every wrong field named by its JSON path and a reason a
 * producer can act on, and a refused payload never yields a value.
 */
class PayloadBinderTest {

    record Line(@NotNull @Size(max = 3) String sku, @NotNull @Min(1) Integer count) {
    }

    record Order(@NotNull @Valid Line first, List<@Valid Line> lines, BigDecimal amount, int priority, Boolean rush) {
    }

    /** Constraints only on a container's elements, or only through a nested record. */
    record Tags(List<@NotNull @Size(max = 3) String> tags) {
    }

    record Wrapper(@Valid Line line) {
    }

    /** No constraint at all: bound without a validator's walk. */
    record Plain(String note, int n) {
    }

    /** A record whose constructor refuses a value itself. */
    record Even(int n) {
        Even {
            if (n % 2 != 0) {
                throw new IllegalArgumentException("odd");
            }
        }
    }

    private final ObjectMapper mapper = JsonConfig.newStrictMapper();
    private final PayloadBinder binder = new PayloadBinder(mapper, Validation.byDefaultProvider().configure()
            .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory().getValidator());


    private JsonNode json(String text) {
        try {
            return mapper.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private List<FieldError> errors(String payload, Class<?> type) {
        PayloadBinder.Bound<?> bound = binder.bind(json(payload), type, "payload");
        assertFalse(bound.ok());
        assertNull(bound.value(), "a refused payload yields no value");
        return bound.errors();
    }

    @Test
    void aValidPayloadBindsToItsRecord() {
        PayloadBinder.Bound<Order> bound = binder.bind(json(
                "{'first':{'sku':'a','count':1},'lines':[{'sku':'b','count':2}],'amount':12.50,'priority':3}"),
                Order.class, "payload");

        assertTrue(bound.ok());
        assertEquals(List.of(), bound.errors());
        assertEquals(new Order(new Line("a", 1), List.of(new Line("b", 2)), new BigDecimal("12.5"), 3, null),
                bound.value());
    }

    @Test
    void constraintsOnlyOnContainerElementsOrANestedRecordAreStillChecked() {
        assertEquals(List.of(new FieldError("payload.tags[1].<list element>", "size must be between 0 and 3")),
                errors("{'tags':['ab','abcd']}", Tags.class));
        assertEquals(List.of(new FieldError("payload.line.count", "must be greater than or equal to 1")),
                errors("{'line':{'sku':'a','count':0}}", Wrapper.class));
    }

    @Test
    void aTypeWithoutConstraintsBindsAsItIsRead() {
        PayloadBinder.Bound<Plain> bound = binder.bind(json("{'note':'x','n':2}"), Plain.class, "payload");

        assertEquals(new PayloadBinder.Bound<>(new Plain("x", 2), List.of()), bound);
        assertEquals(List.of(new FieldError("payload.n", "must be a number")), errors("{'n':'two'}", Plain.class),
                "its JSON is still read strictly");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"[1,2]", "\"text\"", "42", "null"})
    void onlyAJsonObjectIsAPayload(String payload) {
        assertEquals(List.of(new FieldError("payload", "must be a JSON object")), errors(payload, Line.class));
    }

    @Test
    void aMissingPayloadIsNotAnObjectEither() {
        assertEquals(List.of(new FieldError("payload", "must be a JSON object")),
                binder.bind(null, Line.class, "payload").errors());
    }

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        "{'priority':1,'first':{'sku':'a','count':1},'extra':1}         | payload.extra          | unknown field",
        "{'priority':1,'first':{'sku':'a','count':'5'}}                 | payload.first.count    | must be a number",
        "{'priority':1,'first':{'sku':5,'count':1}}                     | payload.first.sku      | must be a string",
        "{'priority':1,'first':{'sku':'a','count':1},'amount':'12.5'}   | payload.amount         | must be a decimal number",
        "{'priority':'high','first':{'sku':'a','count':1}}              | payload.priority       | must be a number",
        "{'first':{'sku':'a','count':1}}                                | payload.priority       | must be a number",
        "{'priority':1,'first':7}                                       | payload.first          | must be a JSON object",
        "{'priority':1,'first':{'sku':'a','count':1},'lines':[{'sku':'b','count':'x'}]} | payload.lines[0].count | must be a number",
        "{'priority':1,'first':{'sku':'a','count':1},'lines':[{'sku':'b','count':1},{'sku':'c','what':1}]} | payload.lines[1].what | unknown field",
    })
    void aFieldThatDoesNotBindIsNamedWithItsReason(String payload, String field, String message) {
        assertEquals(List.of(new FieldError(field, message)), errors(payload, Order.class));
    }

    @Test
    void aValueTheRecordItselfRefusesIsAnInvalidValueOfItsPath() {
        assertEquals(List.of(new FieldError("payload", "invalid value")), errors("{'n':3}", Even.class));
    }

    @Test
    void everyConstraintViolationIsReportedSortedByField() {
        assertEquals(List.of(
                new FieldError("payload.first.count", "must be greater than or equal to 1"),
                new FieldError("payload.first.sku", "size must be between 0 and 3"),
                new FieldError("payload.lines[0].count", "must not be null")),
                errors("{'priority':1,'first':{'sku':'abcd','count':0},'lines':[{'sku':'b'}]}", Order.class));
    }

    @Test
    void anEmptyPathNamesTheFieldAlone() {
        assertEquals(List.of(new FieldError("extra", "unknown field")),
                binder.bind(json("{'sku':'a','count':1,'extra':1}"), Line.class, "").errors());
        assertEquals("amount", PayloadBinder.join("", "amount"));
        assertEquals("tasks[2].payload.amount", PayloadBinder.join("tasks[2].payload", "amount"));
    }
}
