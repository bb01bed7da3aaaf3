package io.dedupq.api;

import io.dedupq.security.Roles;
import io.dedupq.worker.WorkerDirectory;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The worker processes and the age of their last heartbeat. */
@RolesAllowed(Roles.OPERATOR)
@Path("/api/workers")
@Tag(name = "queues")
@Produces(MediaType.APPLICATION_JSON)
public class WorkerResource {

    private final WorkerDirectory directory;

    public WorkerResource(WorkerDirectory directory) {
        this.directory = directory;
    }

    @GET
    @Operation(summary = "The worker processes and the age of their last heartbeat (role operator)")
    @APIResponse(responseCode = "200", description = "One entry per worker", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY,
                    implementation = WorkerDirectory.WorkerView.class)))
    public List<WorkerDirectory.WorkerView> workers() {
        return directory.workers();
    }
}
