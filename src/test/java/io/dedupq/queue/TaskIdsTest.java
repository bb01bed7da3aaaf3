package io.dedupq.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The id rule of DESIGN.md: 1-128 characters of [A-Za-z0-9._:-], starting with a letter or digit. */
class TaskIdsTest {

    @ParameterizedTest(name = "[{0}] valid: {1}")
    @CsvSource(nullValues = "null", value = {
        "a, true",
        "Z9, true",
        "pay-2024.01_x:7, true",
        "0-starts-with-a-digit, true",
        "null, false",
        "'', false",
        "-starts-with-a-dash, false",
        ".dot, false",
        "_under, false",
        ":colon, false",
        "has space, false",
        "slash/inside, false",
        "brace{tag}, false",
        "'new\nline', false",
        "ümlaut, false",
    })
    void idsFollowTheRule(String id, boolean valid) {
        assertEquals(valid, TaskIds.valid(id), "id [" + id + "]");
    }

    @ParameterizedTest(name = "{0} characters: {1}")
    @CsvSource({"1, true", "127, true", "128, true", "129, false", "100000, false"})
    void atMost128Characters(int length, boolean valid) {
        assertEquals(valid, TaskIds.valid("a".repeat(length)));
    }

    @Test
    void theCheckAgreesWithThePatternOnEveryCharacterInEveryPlace() {
        Pattern pattern = Pattern.compile(TaskIds.PATTERN);
        for (char c = 0; c < 0x3000; c++) {
            for (String id : new String[] {c + "x", "x" + c, "x" + c + "y"}) {
                assertEquals(pattern.matcher(id).matches(), TaskIds.valid(id), "id [" + id + "], character " + (int) c);
            }
        }
    }
}
