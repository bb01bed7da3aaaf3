package io.dedupq.api;

import io.dedupq.handler.HandlerRegistry;
import io.dedupq.queue.DeadLetterStore;
import io.dedupq.queue.DeadPage;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** A queue's dead letters: read them page by page, put one back on the queue, or discard it. */
@Path("/api/queues/{queue}/dead")
@Produces(MediaType.APPLICATION_JSON)
public class DeadLetterResource {

    private final DeadLetterStore store;
    private final HandlerRegistry registry;

    public DeadLetterResource(DeadLetterStore store, HandlerRegistry registry) {
        this.store = store;
        this.registry = registry;
    }

    /** Newest first; {@code offset} counts from the newest record. */
    @GET
    public DeadPage list(@PathParam("queue") String queue, @QueryParam("offset") String offset,
            @QueryParam("limit") String limit) {
        String known = queue(queue);
        return store.page(known, Params.offset(offset), Params.limit(limit));
    }

    /** 202: the task is queued again under its id as a first attempt. */
    @POST
    @Path("/{id}/retry")
    public Response retry(@PathParam("queue") String queue, @PathParam("id") String id) {
        String known = queue(queue);
        DeadLetterStore.Result result = store.revive(known, Params.id(id));
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
    public Response discard(@PathParam("queue") String queue, @PathParam("id") String id) {
        String known = queue(queue);
        if (store.discard(known, Params.id(id)).outcome() != DeadLetterStore.Outcome.DONE) {
            throw notDead(known, id);
        }
        return Response.noContent().build();
    }

    private String queue(String name) {
        if (!registry.queues().contains(name)) {
            throw new ProblemException(Problem.of(404, "queue-not-found", "Not Found", "no queue named " + name
                    + "; known queues: " + String.join(", ", registry.queues())));
        }
        return name;
    }

    private static ProblemException notDead(String queue, String id) {
        return new ProblemException(Problem.of(404, "dead-letter-not-found", "Not Found",
                "no dead letter of task " + id + " in queue " + queue));
    }
}
