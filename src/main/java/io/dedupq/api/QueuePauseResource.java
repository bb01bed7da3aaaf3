package io.dedupq.api;

import io.dedupq.handler.HandlerRegistry;
import io.dedupq.queue.TaskQueue;
import io.dedupq.security.OperatorAudit;
import io.dedupq.security.Roles;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Pause and resume a queue across the fleet; both idempotent, both in the operator audit log. */
@RolesAllowed(Roles.OPERATOR)
@Path(ApiPaths.QUEUES + "/{queue}")
@Tag(name = "queues", description = "Counts per queue (role operator)")
@Produces(MediaType.APPLICATION_JSON)
public class QueuePauseResource {

    /** The queue's state after the action. */
    @RegisterForReflection
    public record State(String queue, boolean paused) {
    }

    private final TaskQueue queues;
    private final HandlerRegistry registry;
    private final ProblemResponses problems;
    private final OperatorAudit audit;

    public QueuePauseResource(TaskQueue queues, HandlerRegistry registry, ProblemResponses problems, OperatorAudit audit) {
        this.queues = queues;
        this.registry = registry;
        this.problems = problems;
        this.audit = audit;
    }

    /** Every error of this resource leaves as problem+json; see {@link ProblemResponses}. */
    @ServerExceptionMapper
    public Response problem(Throwable e) {
        return problems.answer(e);
    }

    @POST
    @Path("/pause")
    @Operation(summary = "Pause the queue: workers start none of its tasks, running ones finish, enqueue still accepts")
    @APIResponse(responseCode = "200", description = "Paused (also when it already was)", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = State.class)))
    @APIResponse(responseCode = "404", ref = ApiDocumentation.NOT_FOUND)
    public State pause(@PathParam("queue") String queue) {
        return set(queue, true);
    }

    @POST
    @Path("/resume")
    @Operation(summary = "Resume the queue: workers claim from it again within one claim cycle")
    @APIResponse(responseCode = "200", description = "Running (also when it already was)", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = State.class)))
    @APIResponse(responseCode = "404", ref = ApiDocumentation.NOT_FOUND)
    public State resume(@PathParam("queue") String queue) {
        return set(queue, false);
    }

    private State set(String queue, boolean paused) {
        String known = Params.queue(queue, registry.queues());
        if (paused) {
            queues.pause(known);
        } else {
            queues.resume(known);
        }
        audit.record(paused ? "pause" : "resume", known, "-", paused ? "paused" : "resumed");
        return new State(known, paused);
    }

}
