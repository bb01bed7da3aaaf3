package io.dedupq.api;

import io.dedupq.queue.QueueStats;
import io.dedupq.queue.TaskQueue;
import io.dedupq.security.Roles;
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

/** Counts per queue, for operators, dashboards and autoscalers. */
@RolesAllowed(Roles.OPERATOR)
@Path(ApiPaths.QUEUES)
@Tag(name = "queues", description = "Counts per queue (role operator)")
@Produces(MediaType.APPLICATION_JSON)
public class QueueResource {

    private final TaskQueue queue;
    private final ProblemResponses problems;

    public QueueResource(TaskQueue queue, ProblemResponses problems) {
        this.queue = queue;
        this.problems = problems;
    }

    /** Every error of this resource leaves as problem+json; see {@link ProblemResponses}. */
    @ServerExceptionMapper
    public Response problem(Throwable e) {
        return problems.answer(e);
    }

    @GET
    @Operation(summary = "Sizes and totals of every queue", description = "pending, processing, delayed and dead are "
            + "current sizes; the rest are totals since the queue's stats began, operator actions (cancelled, revived, "
            + "discarded) included")
    @APIResponse(responseCode = "200", description = "One entry per queue", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = QueueStats.class, type = SchemaType.ARRAY)))
    public List<QueueStats> queues() {
        return queue.stats();
    }
}
