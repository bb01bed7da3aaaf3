package io.dedupq.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.dedupq.config.JsonConfig;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Money is exact: read from a JSON number or a plain decimal string, stored as whole minor units. */
class MoneyAmountTest {

    record Price(@JsonDeserialize(using = MoneyAmount.Deserializer.class) BigDecimal amount) {
    }

    private final ObjectMapper mapper = JsonConfig.newStrictMapper();


    private BigDecimal read(String amount) throws Exception {
        return mapper.readValue("{\"amount\":" + amount + "}", Price.class).amount();
    }

    @ParameterizedTest(name = "{0} -> {1} minor units")
    @CsvSource({"12.50, 1250", "0.01, 1", "7, 700", "1000000000, 100000000000", "-3.5, -350"})
    void minorUnitsAreExact(String amount, long minor) {
        assertEquals(minor, MoneyAmount.toMinorUnits(new BigDecimal(amount)));
        assertEquals(new BigDecimal(amount).setScale(2), MoneyAmount.fromMinorUnits(minor));
    }

    @Test
    void aThirdDecimalIsNeverRoundedAway() {
        assertThrows(ArithmeticException.class, () -> MoneyAmount.toMinorUnits(new BigDecimal("12.345")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"12.5, 12.5", "12, 12", "'\"12.50\"', 12.50", "'\"7\"', 7", "'\"-0.5\"', -0.5"})
    void numbersAndDecimalStringsAreRead(String json, String expected) throws Exception {
        assertEquals(new BigDecimal(expected), read(json));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"true", "\"1e3\"", "\"NaN\"", "\" 12\"", "\"12.\"", "\"abc\"", "\"123456789012345678901\"", "{}"})
    void anythingElseIsRefused(String json) {
        assertThrows(MismatchedInputException.class, () -> read(json));
    }
}
