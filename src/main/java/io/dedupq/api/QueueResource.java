package io.dedupq.api;

import io.dedupq.health.RedisMemory;
import io.dedupq.queue.QueueStats;
import io.dedupq.queue.WriteFailures;
import io.dedupq.queue.TaskQueue;
import io.dedupq.security.Roles;
import io.dedupq.sql.OutboxLag;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
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
    private final RedisMemory memory;
    private final WriteFailures refused;
    // exists only with dedupq.sql.enabled
    private final Instance<OutboxLag> outboxLag;

    public QueueResource(TaskQueue queue, ProblemResponses problems, RedisMemory memory, WriteFailures refused,
            Instance<OutboxLag> outboxLag) {
        this.outboxLag = outboxLag;
        this.queue = queue;
        this.problems = problems;
        this.memory = memory;
        this.refused = refused;
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
    @APIResponse(responseCode = "200", description = "One entry per queue; Redis's memory in the headers", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = QueueStats.class, type = SchemaType.ARRAY)),
            headers = {
        @Header(name = "Redis-Used-Memory", description = "Redis used_memory in bytes, as last read"),
        @Header(name = "Redis-Max-Memory", description = "Redis maxmemory in bytes, 0 without a limit"),
        @Header(name = "Redis-Maxmemory-Policy", description = "noeviction, or the evicting policy"),
        @Header(name = "Redis-Refused-Writes", description = "calls of this pod Redis refused with OOM"),
        @Header(name = "Outbox-Lag-Ms", description = "with dedupq.sql.enabled: age of the oldest task in the "
                + "transactional outbox, not yet in Redis (0: empty); absent while the database does not answer")})
    public Response queues() {
        List<QueueStats> stats = queue.stats();
        Response.ResponseBuilder answer = Response.ok(stats).header("Redis-Refused-Writes", refused.forWantOfMemory());
        RedisMemory.State state = memory.latest();
        if (state != null) {
            answer.header("Redis-Used-Memory", state.usedMemory()).header("Redis-Max-Memory", state.maxMemory())
                    .header("Redis-Maxmemory-Policy", state.policy());
        }
        if (outboxLag.isResolvable()) {
            try {
                answer.header("Outbox-Lag-Ms", outboxLag.get().millis());
            } catch (SQLException e) {
                // the queues are Redis's; a database that does not answer only hides the lag
            }
        }
        return answer.build();
    }
}
