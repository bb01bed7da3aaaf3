package io.dedupq.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dedupq.handler.FieldError;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Path and query parameters: the default when absent, the value when in range, else a 400 naming the parameter. */
class ParamsTest {

    private static Problem refused(Runnable call) {
        return assertThrows(ProblemException.class, call::run).problem();
    }

    @Test
    void anIdFollowingTheRuleIsReturned() {
        assertEquals("pay-1", Params.id("pay-1"));
    }

    @Test
    void anyOtherIdIsA400NamingIt() {
        Problem problem = refused(() -> Params.id("bad id"));
        assertEquals(400, problem.status());
        assertEquals(List.of(new FieldError("id", "must be 1-128 characters of A-Z a-z 0-9 . _ : - starting with a "
                + "letter or digit")), problem.errors());
    }

    @ParameterizedTest(name = "limit {0} -> {1}")
    @CsvSource(nullValues = "null", value = {"null, 1000", "1, 1", "10000, 10000", "250, 250"})
    void limitsInRange(String value, int limit) {
        assertEquals(limit, Params.limit(value));
    }

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(strings = {"0", "10001", "-1", "x", "", "1.5", "99999999999"})
    void limitsOutOfRange(String value) {
        Problem problem = refused(() -> Params.limit(value));
        assertEquals(List.of(new FieldError("limit", "must be a whole number from 1 to 10000")), problem.errors());
    }

    @ParameterizedTest(name = "offset {0} -> {1}")
    @CsvSource(nullValues = "null", value = {"null, 0", "0, 0", "2147483647, 2147483647"})
    void offsetsInRange(String value, int offset) {
        assertEquals(offset, Params.offset(value));
    }

    @Test
    void aNegativeOffsetIsRefused() {
        assertEquals(List.of(new FieldError("offset", "must be a whole number from 0 to 2147483647")),
                refused(() -> Params.offset("-1")).errors());
    }

    @Test
    void notFoundAndExistsProblems() {
        Problem missing = Params.notFound("account", "a-1").problem();
        assertEquals(404, missing.status());
        assertEquals("urn:dedupq:problem:account-not-found", missing.type());
        assertEquals("no account with id a-1", missing.detail());
        Problem exists = Params.exists("campaign", "c-1").problem();
        assertEquals(409, exists.status());
        assertEquals("urn:dedupq:problem:campaign-exists", exists.type());
        assertEquals("campaign c-1 already exists; nothing was changed", exists.detail());
    }
}
