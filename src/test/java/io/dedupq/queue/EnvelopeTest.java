package io.dedupq.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JsonNode;
import io.dedupq.config.JsonConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The envelope on the lists, read as any producer may write it and written as the worker does. */
class EnvelopeTest {

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final ObjectMapper mapper = JsonConfig.newStrictMapper();

    @Test
    void aTimeoutIsCarriedInMillisKeptByRetriesAndIgnoredWhenNotAWholeNumberAboveZero() throws Exception {
        String first = Envelope.firstAttemptJson("t-1", "payment", "{}", 5, null, 30_000L, Priority.DEFAULT, null);
        Envelope read = mapper.readValue(first, Envelope.class);

        assertEquals(30_000L, read.timeout());
        assertEquals(30_000L, mapper.readValue(mapper.writeValueAsString(read.nextAttempt()), Envelope.class).timeout());
        assertFalse(Envelope.firstAttemptJson("t-1", "payment", "{}", 5, null, null, Priority.DEFAULT, null).contains("timeout"),
                "absent when the queue's applies");
        for (String bad : new String[] {"\"5s\"", "0", "-3", "1.5", "true", "null"}) {
            assertNull(mapper.readValue("{\"id\":\"t-1\",\"type\":\"payment\",\"payload\":{},\"timeout\":" + bad + "}",
                    Envelope.class).timeout(), bad);
        }
    }

    @Test
    void everyFieldIsRead() throws Exception {
        Envelope e = mapper.readValue("{\"id\":\"t-1\",\"type\":\"payment\",\"payload\":{\"a\":1},\"attempt\":2,"
                + "\"enqueuedAt\":1700000000000}", Envelope.class);

        assertEquals("t-1", e.id());
        assertEquals("payment", e.type());
        assertEquals(1, e.payload().get("a").asInt());
        assertEquals(2, e.attempt());
        assertEquals(1_700_000_000_000L, e.enqueuedAt());
    }

    @Test
    void aMissingAttemptOrEnqueuedAtCountsAsZeroAndUnknownFieldsAreIgnored() throws Exception {
        Envelope e = mapper.readValue("{\"id\":\"t-1\",\"type\":\"payment\",\"payload\":{},\"from\":\"php\"}", Envelope.class);

        assertEquals(0, e.attempt());
        assertEquals(0, e.enqueuedAt());
    }

    @Test
    void theNextAttemptKeepsEverythingButTheAttempt() throws Exception {
        Envelope first = mapper.readValue("{\"id\":\"t-1\",\"type\":\"payment\",\"payload\":{\"a\":1},\"attempt\":0,"
                + "\"enqueuedAt\":5}", Envelope.class);

        Envelope next = first.nextAttempt();

        assertEquals(new Envelope("t-1", "payment", first.payload(), 1, 5, null, null, null, null, null), next);
        assertEquals(next, mapper.readValue(mapper.writeValueAsString(next), Envelope.class), "written as it is read");
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(strings = {"payment", "quote\" back\\slash", "tab\tnew\nline\u0001", "ümlaut ✓ 😀", "</script>"})
    void aFirstAttemptWrittenFromItsPayloadTextIsWhatTheMapperWrites(String type) throws Exception {
        JsonNode payload = mapper.readTree("{\"amount\":\"12.50\",\"n\":[1,2.5,null],\"s\":\"a\\\"b\"}");

        assertEquals(mapper.writeValueAsString(new Envelope("t-1:x", type, payload, 0, 1_700_000_000_123L, null, null, null, null,
                null)),
                Envelope.firstAttemptJson("t-1:x", type, mapper.writeValueAsString(payload), 1_700_000_000_123L, null, null,
                        Priority.DEFAULT, null));
    }

    @Test
    void withoutATraceTheEnvelopeHasNoTraceField() throws Exception {
        String written = mapper.writeValueAsString(mapper.readValue("{\"id\":\"t-1\",\"type\":\"payment\",\"payload\":{}}",
                Envelope.class).nextAttempt());

        assertFalse(written.contains("trace"), written);
    }

    @Test
    void aTraceContextIsReadWrittenAndKeptByTheNextAttempt() throws Exception {
        JsonNode payload = mapper.readTree("{\"a\":1}");
        Envelope.Trace trace = new Envelope.Trace(TRACEPARENT, "vendor=a\"b");
        String first = Envelope.firstAttemptJson("t-1", "payment", mapper.writeValueAsString(payload), 5, trace, null,
                Priority.DEFAULT, null);

        Envelope read = mapper.readValue(first, Envelope.class);

        assertEquals(new Envelope("t-1", "payment", payload, 0, 5, TRACEPARENT, "vendor=a\"b", null, null, null), read);
        assertEquals(first, mapper.writeValueAsString(read), "written as the mapper writes it");
        assertEquals(TRACEPARENT, read.nextAttempt().traceparent());
        assertEquals("vendor=a\"b", read.nextAttempt().tracestate());
        assertEquals(new Envelope("t-1", "payment", payload, 0, 5, TRACEPARENT, null, null, null, null),
                mapper.readValue(Envelope.firstAttemptJson("t-1", "payment", "{\"a\":1}", 5, new Envelope.Trace(TRACEPARENT, null),
                        null, Priority.DEFAULT, null),
                        Envelope.class), "no tracestate");
    }

    @ParameterizedTest(name = "traceparent {0}")
    @ValueSource(strings = {"42", "null", "{\"a\":1}", "[\"00\"]", "true"})
    void aTraceFieldThatIsNotTextIsIgnoredAndTheTaskStillReads(String value) throws Exception {
        Envelope e = mapper.readValue("{\"id\":\"t-1\",\"type\":\"payment\",\"payload\":{},\"traceparent\":" + value
                + ",\"tracestate\":" + value + "}", Envelope.class);

        assertEquals("t-1", e.id());
        assertNull(e.traceparent());
        assertNull(e.tracestate());
    }

    @Test
    void aPriorityOtherThanTheDefaultIsWrittenReadAndKeptByTheNextAttempt() throws Exception {
        String first = Envelope.firstAttemptJson("t-1", "payment", "{\"a\":1}", 5, null, null, 8, null);

        Envelope read = mapper.readValue(first, Envelope.class);

        assertEquals(8, read.priority());
        assertEquals(first, mapper.writeValueAsString(read), "written as the mapper writes it");
        assertEquals(8, read.nextAttempt().priority());
        assertFalse(Envelope.firstAttemptJson("t-1", "payment", "{}", 5, null, null, Priority.DEFAULT, null).contains("priority"),
                "the default level is left out");
    }

    @ParameterizedTest(name = "priority {0}")
    @ValueSource(strings = {"5", "10", "-1", "2.5", "\"9\"", "null", "[9]"})
    void aPriorityThatIsNotAnotherLevelReadsAsTheDefault(String value) throws Exception {
        Envelope e = mapper.readValue("{\"id\":\"t-1\",\"type\":\"payment\",\"payload\":{},\"priority\":" + value + "}",
                Envelope.class);

        assertNull(e.priority());
    }
}
