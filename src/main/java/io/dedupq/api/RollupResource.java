package io.dedupq.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.dedupq.queue.StatsRollup;
import io.dedupq.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** The history written by the stats roll-up job: one entry per fire time, newest first. */
@RolesAllowed(Roles.OPERATOR)
@Path(ApiPaths.ROLLUPS)
@Tag(name = "queues")
@Produces(MediaType.APPLICATION_JSON)
public class RollupResource {

    private final StatsRollup rollup;
    private final ProblemResponses problems;

    public RollupResource(StatsRollup rollup, ProblemResponses problems) {
        this.rollup = rollup;
        this.problems = problems;
    }

    /** Every error of this resource leaves as problem+json; see {@link ProblemResponses}. */
    @ServerExceptionMapper
    public Response problem(Throwable e) {
        return problems.answer(e);
    }

    @GET
    @Operation(summary = "The stats roll-ups, newest first (?limit=1..10000)")
    @APIResponse(responseCode = "200", description = "One entry per fire time of the roll-up job",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY)))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    public List<JsonNode> recent(@QueryParam("limit") String limit) throws JsonProcessingException {
        return rollup.recent(Params.limit(limit));
    }
}
