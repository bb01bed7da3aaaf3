package io.dedupq.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** dedupq.queues.<q>.rate-limit as written in the configuration: N/duration, anything else refused with the form. */
class RateLimitTest {

    @Test
    void readsTheDocumentedForms() {
        assertEquals(new RateLimit(100, Duration.ofSeconds(1)), RateLimit.parse("100/1s"));
        assertEquals(new RateLimit(5, Duration.ofMinutes(1)), RateLimit.parse("5/1m"));
        assertEquals(new RateLimit(20, Duration.ofMillis(500)), RateLimit.parse("20/500ms"));
        assertEquals(new RateLimit(1000, Duration.ofHours(2)), RateLimit.parse(" 1000/2h "));
    }

    /** GET /api/queues shows a limit in this form: the largest unit that writes its window whole. */
    @Test
    void writesItselfInTheFormItIsReadFrom() {
        for (String[] form : new String[][] {{"100/1s", "100/1s"}, {"5/60s", "5/1m"}, {"20/500ms", "20/500ms"},
                {"7/1500ms", "7/1500ms"}, {"3/120m", "3/2h"}, {"2/90s", "2/90s"}}) {
            RateLimit limit = RateLimit.parse(form[0]);
            assertEquals(form[1], limit.toString(), form[0]);
            assertEquals(limit, RateLimit.parse(limit.toString()), form[0] + " reads back");
        }
    }

    @Test
    void refusesWhatItCannotRead() {
        for (String wrong : new String[] {"", "100", "100/s", "/1s", "0/1s", "5/0s", "-1/1s", "5/1d", "5/1.5s", "x/1s",
                "99999999999/1s"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RateLimit.parse(wrong), wrong);
            assertTrue(e.getMessage().contains("'" + wrong + "' is not a rate limit"), e.getMessage());
        }
    }
}
