package io.dedupq.api;

import io.dedupq.security.Roles;
import io.dedupq.worker.WorkerDirectory;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
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

/** The worker processes, the age of their last heartbeat, and the tasks each runs right now. */
@RolesAllowed(Roles.OPERATOR)
@Path(ApiPaths.WORKERS)
@Tag(name = "queues")
@Produces(MediaType.APPLICATION_JSON)
public class WorkerResource {

    private final WorkerDirectory directory;
    private final ProblemResponses problems;

    public WorkerResource(WorkerDirectory directory, ProblemResponses problems) {
        this.directory = directory;
        this.problems = problems;
    }

    /** Every error of this resource leaves as problem+json; see {@link ProblemResponses}. */
    @ServerExceptionMapper
    public Response problem(Throwable e) {
        return problems.answer(e);
    }

    @GET
    @Operation(summary = "The worker processes, the age of their last heartbeat and the tasks each runs right now "
            + "(role operator)")
    @APIResponse(responseCode = "200", description = "One entry per worker", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY,
                    implementation = WorkerDirectory.WorkerView.class)))
    public List<WorkerDirectory.WorkerView> workers() {
        return directory.workers();
    }
}
