package io.dedupq.api;

import io.dedupq.handler.HandlerRegistry;
import io.dedupq.queue.DeadLetterStore;
import io.dedupq.queue.DeadPage;
import io.dedupq.security.OperatorAudit;
import io.dedupq.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** A queue's dead letters: read them page by page, put one back on the queue, or discard it. */
@RolesAllowed(Roles.OPERATOR)
@Path(ApiPaths.QUEUES + "/{queue}/dead")
@Tag(name = "dead letters", description = "Read, retry and discard dead letters (role operator)")
@Produces(MediaType.APPLICATION_JSON)
public class DeadLetterResource {

    private final DeadLetterStore store;
    private final HandlerRegistry registry;
    private final ProblemResponses problems;
    private final OperatorAudit audit;

    public DeadLetterResource(DeadLetterStore store, HandlerRegistry registry, ProblemResponses problems,
            OperatorAudit audit) {
        this.store = store;
        this.registry = registry;
        this.problems = problems;
        this.audit = audit;
    }

    /** Every error of this resource leaves as problem+json; see {@link ProblemResponses}. */
    @ServerExceptionMapper
    public Response problem(Throwable e) {
        return problems.answer(e);
    }

    /** Newest first; {@code offset} counts from the newest record. */
    @GET
    @Operation(summary = "A page of the queue's dead letters, newest first (?offset=0&limit=1..10000)")
    @APIResponse(responseCode = "200", description = "The page", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = DeadPage.class)))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "404", ref = ApiDocumentation.NOT_FOUND)
    public DeadPage list(@PathParam("queue") String queue, @QueryParam("offset") String offset,
            @QueryParam("limit") String limit) {
        String known = queue(queue);
        return store.page(known, Params.offset(offset), Params.limit(limit));
    }

    /** 202: the task is queued again under its id as a first attempt. */
    @POST
    @Path("/{id}/retry")
    @Operation(summary = "Queue a dead-lettered task again as a first attempt")
    @APIResponse(responseCode = "202", description = "Queued again", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = TaskResource.Accepted.class)))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "404", ref = ApiDocumentation.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocumentation.CONFLICT)
    public Response retry(@PathParam("queue") String queue, @PathParam("id") String id) {
        String known = queue(queue);
        DeadLetterStore.Result result = store.revive(known, Params.id(id));
        audit.record("retry", known, id, outcome(result));
        return switch (result.outcome()) {
            case DONE -> Response.status(202).entity(new TaskResource.Accepted(id, known, result.status(), null)).build();
            case NOT_DEAD -> throw new ProblemException(Problem.of(409, "not-dead", "Task is not dead-lettered",
                    "task " + id + " is " + result.status() + " now; its old dead letter was left as it is"));
            case NOT_A_TASK -> throw new ProblemException(Problem.of(409, "not-a-task", "Dead letter cannot be retried",
                    "the dead letter of " + id + " holds no task envelope; discard it instead"));
            case NOT_FOUND -> throw notDead(known, id);
        };
    }

    /** 204: the record is gone from the dead list; the task stays terminal. */
    @DELETE
    @Path("/{id}")
    @Operation(summary = "Discard a dead letter; the task stays terminal")
    @APIResponse(responseCode = "204", description = "Discarded")
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "404", ref = ApiDocumentation.NOT_FOUND)
    public Response discard(@PathParam("queue") String queue, @PathParam("id") String id) {
        String known = queue(queue);
        DeadLetterStore.Result result = store.discard(known, Params.id(id));
        audit.record("discard", known, id, outcome(result));
        if (result.outcome() != DeadLetterStore.Outcome.DONE) {
            throw notDead(known, id);
        }
        return Response.noContent().build();
    }

    private String queue(String name) {
        return Params.queue(name, registry.queues());
    }

    private static String outcome(DeadLetterStore.Result result) {
        return result.outcome().name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static ProblemException notDead(String queue, String id) {
        return new ProblemException(Problem.of(404, "dead-letter-not-found", "Not Found",
                "no dead letter of task " + id + " in queue " + queue));
    }
}
