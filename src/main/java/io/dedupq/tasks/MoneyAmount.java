package io.dedupq.tasks;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * Money as exact decimals: read from a JSON number or a decimal string ("12.50"), kept in Redis
 * as an integer count of minor units (cents) so Lua never does floating point on money.
 */
public final class MoneyAmount {

    private static final Pattern DECIMAL = Pattern.compile("-?[0-9]{1,20}(\\.[0-9]{1,20})?");

    private MoneyAmount() {
    }

    /** Call only on validated amounts (at most 2 decimals, bounded): exact, never rounds. */
    public static long toMinorUnits(BigDecimal amount) {
        return amount.movePointRight(2).longValueExact();
    }

    public static BigDecimal fromMinorUnits(long minor) {
        return BigDecimal.valueOf(minor, 2);
    }

    /** Accepts a JSON number or a plain decimal string; anything else (booleans, "1e3", "NaN") is refused. */
    public static class Deserializer extends JsonDeserializer<BigDecimal> {
        @Override
        public BigDecimal deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
            JsonToken token = p.currentToken();
            if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
                return p.getDecimalValue();
            }
            if (token == JsonToken.VALUE_STRING && DECIMAL.matcher(p.getText()).matches()) {
                return new BigDecimal(p.getText());
            }
            return (BigDecimal) ctx.handleUnexpectedToken(BigDecimal.class, p);
        }
    }
}
