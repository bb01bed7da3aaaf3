package io.dedupq.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.dedupq.queue.EnqueueResult;
import io.dedupq.queue.TaskCanceller;
import io.dedupq.queue.TaskQueue;
import io.dedupq.queue.TaskSubmission;
import io.dedupq.queue.TaskView;
import io.dedupq.security.OperatorAudit;
import io.dedupq.security.Roles;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Enqueue tasks and read their status. */
@RolesAllowed(Roles.PRODUCER)
@Path(ApiPaths.TASKS)
@Tag(name = "tasks", description = "Enqueue tasks (role producer) and read their status")
@Produces(MediaType.APPLICATION_JSON)
public class TaskResource {

    private static final String PAYMENT = "{\"id\":\"pay-0001\",\"type\":\"payment\",\"payload\":{\"accountId\":\"acc-1\","
            + "\"amount\":\"12.50\",\"currency\":\"EUR\",\"reference\":\"order 17\"}}";

    private final TaskQueue queue;
    private final TaskRequests requests;
    private final ProblemResponses problems;
    private final OperatorAudit audit;

    public TaskResource(TaskQueue queue, TaskRequests requests, ProblemResponses problems, OperatorAudit audit) {
        this.audit = audit;
        this.queue = queue;
        this.requests = requests;
        this.problems = problems;
    }

    /** Every error of this resource leaves as problem+json; see {@link ProblemResponses}. */
    @ServerExceptionMapper
    public Response problem(Throwable e) {
        return problems.answer(e);
    }

    /** The answer to one submitted task; {@code duplicate} only when the id was already known. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Accepted(String id, String queue, String status, Boolean duplicate) {
    }

    /** One entry per submitted task, in order; {@code code} is what POST /api/tasks would answer. */
    @RegisterForReflection
    public record BatchEntry(String id, String queue, String status, boolean duplicate, boolean conflict, int code) {
    }

    /** The body of POST /api/tasks/batch, as {@link TaskRequests} reads it; named here for the OpenAPI document. */
    public record BatchRequest(List<TaskSubmission> tasks) {
    }

    @RegisterForReflection
    @JsonSerialize(using = BatchResultJson.class)
    public record BatchResult(int accepted, int duplicates, int conflicts, List<BatchEntry> results) {
    }

    /** 202 when enqueued, 200 for a duplicate of a known task, 409 for a known id with another payload. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Enqueue one task", description = "Accepted once per id and queue; the same id again with the "
            + "same type and payload answers 200 as a duplicate. Without an id a UUID is generated.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = TaskSubmission.class), examples = @ExampleObject(name = "payment", value = PAYMENT)))
    @APIResponse(responseCode = "202", description = "Enqueued", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = Accepted.class), examples = @ExampleObject(name = "queued",
                    value = "{\"id\":\"pay-0001\",\"queue\":\"payment\",\"status\":\"queued\"}")))
    @APIResponse(responseCode = "200", description = "A duplicate of a known task; its current status",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Accepted.class),
                    examples = @ExampleObject(name = "duplicate",
                            value = "{\"id\":\"pay-0001\",\"queue\":\"payment\",\"status\":\"succeeded\",\"duplicate\":true}")))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "409", ref = ApiDocumentation.CONFLICT)
    @APIResponse(responseCode = "413", ref = ApiDocumentation.TOO_LARGE)
    public Uni<Response> enqueue(byte[] body) {
        return queue.enqueueAsync(requests.single(body)).map(result -> {
            if (result.conflict()) {
                throw conflict(result.id());
            }
            return Response.status(result.accepted() ? 202 : 200)
                    .entity(new Accepted(result.id(), result.queue(), result.status(), result.duplicate() ? true : null))
                    .build();
        });
    }

    /** All tasks are validated first: one invalid task refuses the batch and nothing is enqueued. */
    @POST
    @Path("/batch")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Enqueue up to max-batch-size tasks", description = "All are validated first: one invalid "
            + "task refuses the batch and nothing is enqueued. Results come in input order.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = BatchRequest.class),
            examples = @ExampleObject(name = "two payments", value = "{\"tasks\":[" + PAYMENT + "," + PAYMENT + "]}")))
    @APIResponse(responseCode = "200", description = "One result per task: accepted (code 202), duplicate (200) or conflict (409)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = BatchResult.class)))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "413", ref = ApiDocumentation.TOO_LARGE)
    public Uni<BatchResult> enqueueBatch(byte[] body) {
        return queue.enqueueAllAsync(requests.batch(body)).map(TaskResource::batchResult);
    }

    private static BatchResult batchResult(List<EnqueueResult> results) {
        List<BatchEntry> entries = new ArrayList<>(results.size());
        int accepted = 0;
        int conflicts = 0;
        for (EnqueueResult r : results) {
            int code = r.conflict() ? 409 : r.duplicate() ? 200 : 202;
            accepted += code == 202 ? 1 : 0;
            conflicts += code == 409 ? 1 : 0;
            entries.add(new BatchEntry(r.id(), r.queue(), r.status(), r.duplicate(), r.conflict(), code));
        }
        return new BatchResult(accepted, entries.size() - accepted - conflicts, conflicts, entries);
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A task's status", description = "status is queued, running, retrying, succeeded, failed or "
            + "dead; timestamps are epoch milliseconds")
    @APIResponse(responseCode = "200", description = "The task", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = TaskView.class), examples = @ExampleObject(name = "succeeded", value = "{\"id\":"
                    + "\"pay-0001\",\"queue\":\"payment\",\"type\":\"payment\",\"status\":\"succeeded\",\"attempts\":1,"
                    + "\"enqueuedAt\":1732870000000,\"startedAt\":1732870000012,\"finishedAt\":1732870000020}")))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "404", ref = ApiDocumentation.NOT_FOUND)
    public TaskView status(@PathParam("id") String id) {
        return queue.status(Params.id(id)).orElseThrow(() -> Params.notFound("task", id));
    }

    /**
     * A queued, retrying or running task ends {@code cancelled}; a running one's handler is told and
     * interrupted, and its outcome is discarded. A finished task is a 409.
     */
    @POST
    @Path("/{id}/cancel")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Cancel a queued, retrying or running task (role operator)")
    @APIResponse(responseCode = "200", description = "Cancelled", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = Accepted.class)))
    @APIResponse(responseCode = "400", ref = ApiDocumentation.INVALID)
    @APIResponse(responseCode = "404", ref = ApiDocumentation.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocumentation.CONFLICT)
    public Accepted cancel(@PathParam("id") String id) {
        TaskCanceller.Cancelled result = queue.cancel(Params.id(id)).orElse(null);
        audit.record("cancel", result == null ? null : result.queue(), id,
                result == null ? "not-found" : result.cancelled() ? "done" : "not-cancellable:" + result.status());
        if (result == null) {
            throw Params.notFound("task", id);
        }
        if (!result.cancelled()) {
            throw new ProblemException(Problem.of(409, "not-cancellable", "Task cannot be cancelled", "task " + id
                    + " is " + result.status() + "; only a queued, retrying or running task can be cancelled"));
        }
        return new Accepted(id, result.queue(), result.status(), null);
    }

    private static ProblemException conflict(String id) {
        return new ProblemException(Problem.of(409, "id-conflict", "Task id already used",
                "task " + id + " is already known with a different type or payload; nothing was enqueued"));
    }
}
