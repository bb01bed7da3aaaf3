package io.dedupq.api;

import io.dedupq.handler.HandlerRegistry;
import io.dedupq.queue.QueueTasks;
import io.dedupq.queue.TaskPage;
import io.dedupq.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** A queue's waiting, delayed or running tasks, page by page. */
@RolesAllowed(Roles.OPERATOR)
@Path(ApiPaths.QUEUES + "/{queue}/tasks")
@Tag(name = "queues")
@Produces(MediaType.APPLICATION_JSON)
public class QueueTaskResource {

    private final QueueTasks tasks;
    private final HandlerRegistry registry;
    private final ProblemResponses problems;

    public QueueTaskResource(QueueTasks tasks, HandlerRegistry registry, ProblemResponses problems) {
        this.tasks = tasks;
        this.registry = registry;
        this.problems = problems;
    }

    /** Every error of this resource leaves as problem+json; see {@link ProblemResponses}. */
    @ServerExceptionMapper
    public Response problem(Throwable e) {
        return problems.answer(e);
    }

    @GET
    @Operation(summary = "A page of the queue's tasks in one state (?state=waiting|delayed|running&offset=0&limit=1..10000)",
            description = "waiting: what runs next first; delayed: the soonest due first; running: the longest-running "
                    + "first (role operator)")
    @APIResponse(responseCode = "200", description = "The page", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = TaskPage.class)))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "404", ref = ApiDocumentation.NOT_FOUND)
    public TaskPage list(@PathParam("queue") String queue, @QueryParam("state") String state,
            @QueryParam("offset") String offset, @QueryParam("limit") String limit) {
        String known = Params.queue(queue, registry.queues());
        QueueTasks.State listed = state == null ? QueueTasks.State.WAITING : QueueTasks.State.of(state)
                .orElseThrow(() -> new ProblemException(Problem.invalid("state", "must be waiting, delayed or running")));
        return tasks.page(known, listed, Params.offset(offset), Params.limit(limit));
    }
}
