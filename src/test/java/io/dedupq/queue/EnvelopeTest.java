package io.dedupq.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JsonNode;
import io.dedupq.config.JsonConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The envelope on the lists, read as any producer may write it and written as the worker does. */
class EnvelopeTest {

    private final ObjectMapper mapper = JsonConfig.newStrictMapper();


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

        assertEquals(new Envelope("t-1", "payment", first.payload(), 1, 5), next);
        assertEquals(next, mapper.readValue(mapper.writeValueAsString(next), Envelope.class), "written as it is read");
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(strings = {"payment", "quote\" back\\slash", "tab\tnew\nline\u0001", "ümlaut ✓ 😀", "</script>"})
    void aFirstAttemptWrittenFromItsPayloadTextIsWhatTheMapperWrites(String type) throws Exception {
        JsonNode payload = mapper.readTree("{\"amount\":\"12.50\",\"n\":[1,2.5,null],\"s\":\"a\\\"b\"}");

        assertEquals(mapper.writeValueAsString(new Envelope("t-1:x", type, payload, 0, 1_700_000_000_123L)),
                Envelope.firstAttemptJson("t-1:x", type, mapper.writeValueAsString(payload), 1_700_000_000_123L));
    }
}
