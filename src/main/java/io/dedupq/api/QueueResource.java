package io.dedupq.api;

import io.dedupq.queue.QueueStats;
import io.dedupq.queue.TaskQueue;
import io.dedupq.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** Counts per queue, for operators, dashboards and autoscalers. */
@RolesAllowed(Roles.OPERATOR)
@Path("/api/queues")
@Produces(MediaType.APPLICATION_JSON)
public class QueueResource {

    private final TaskQueue queue;

    public QueueResource(TaskQueue queue) {
        this.queue = queue;
    }

    @GET
    public List<QueueStats> queues() {
        return queue.stats();
    }
}
