package io.dedupq.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.dedupq.queue.StatsRollup;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** The history written by the stats roll-up job: one entry per fire time, newest first. */
@Path("/api/rollups")
@Produces(MediaType.APPLICATION_JSON)
public class RollupResource {

    private final StatsRollup rollup;

    public RollupResource(StatsRollup rollup) {
        this.rollup = rollup;
    }

    @GET
    public List<JsonNode> recent(@QueryParam("limit") String limit) throws JsonProcessingException {
        return rollup.recent(Params.limit(limit));
    }
}
