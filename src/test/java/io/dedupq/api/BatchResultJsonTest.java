package io.dedupq.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The batch answer's hand-written JSON is the bean serialiser's, field for field and in order. */
class BatchResultJsonTest {

    @Test
    void writtenAsTheBeanSerialiserWritesIt() throws Exception {
        TaskResource.BatchResult result = new TaskResource.BatchResult(1, 1, 1, List.of(
                new TaskResource.BatchEntry("t-1", "payment", "queued", false, false, 202),
                new TaskResource.BatchEntry("t-2", "payment", "succeeded", true, false, 200),
                new TaskResource.BatchEntry("t-3", "voucher", "running", false, true, 409)));
        ObjectMapper beans = JsonMapper.builder().disable(MapperFeature.USE_ANNOTATIONS).build();

        assertEquals(beans.writeValueAsString(result), new ObjectMapper().writeValueAsString(result));
        assertEquals("{\"accepted\":0,\"duplicates\":0,\"conflicts\":0,\"results\":[]}",
                new ObjectMapper().writeValueAsString(new TaskResource.BatchResult(0, 0, 0, List.of())));
    }
}
