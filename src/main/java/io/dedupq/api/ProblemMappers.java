package io.dedupq.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.InvalidTaskException;
import io.dedupq.queue.StoreUnavailableException;
import io.dedupq.security.ApiKeyMechanism;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Every error leaves as application/problem+json, with no stack trace in it. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    private final ObjectMapper mapper;
    private final DedupqConfig config;

    public ProblemMappers(ObjectMapper mapper, DedupqConfig config) {
        this.mapper = mapper;
        this.config = config;
    }

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        return respond(e.problem());
    }

    @ServerExceptionMapper
    public Response invalidTask(InvalidTaskException e) {
        return respond(Problem.invalid(e.errors()));
    }

    /**
     * Redis down, paused or refused by the circuit breaker: the client should come back later.
     * After a timeout the request may already sit in Redis's socket and run when Redis wakes up,
     * so the answer must not promise that nothing was written: a retry with the same task id is
     * the safe way, and answers 200 duplicate if the first one got through.
     */
    @ServerExceptionMapper({StoreUnavailableException.class, FaultToleranceException.class})
    public Response unavailable(RuntimeException e) {
        LOG.warnf("answering 503: %s", e.getMessage());
        return Response.fromResponse(respond(Problem.of(503, "store-unavailable", "Service unavailable",
                "the task store (Redis) did not answer; a write may or may not have taken effect. Retry later "
                        + "with the same task id: a task that did get through then answers 200 as a duplicate")))
                .header("Retry-After", config.api().retryAfterSeconds()).build();
    }

    /** No key, or a key that matches none: the caller is not known. */
    @ServerExceptionMapper({UnauthorizedException.class, AuthenticationFailedException.class})
    public Response unauthenticated(RuntimeException e) {
        return Response.fromResponse(respond(Problem.of(401, "unauthenticated", "Unauthorized",
                "send a valid API key in the " + ApiKeyMechanism.HEADER + " header")))
                .header("WWW-Authenticate", "ApiKey header=\"" + ApiKeyMechanism.HEADER + "\"").build();
    }

    /** A known key without the role this endpoint needs. */
    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return respond(Problem.of(403, "forbidden", "Forbidden", "this API key does not have the role this endpoint needs"));
    }

    @ServerExceptionMapper
    public Response http(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        String title = e.getResponse().getStatusInfo().getReasonPhrase();
        return respond(Problem.of(status, title.toLowerCase().replace(' ', '-'), title, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        LOG.error("unexpected error while handling a request", e);
        return respond(Problem.of(500, "internal", "Internal error", "the request failed; nothing is known to be written"));
    }

    private Response respond(Problem problem) {
        String body;
        try {
            body = mapper.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            body = "{\"title\":\"" + problem.status() + "\",\"status\":" + problem.status() + "}";
        }
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(body).build();
    }
}
