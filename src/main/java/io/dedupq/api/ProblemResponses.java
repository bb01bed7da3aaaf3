package io.dedupq.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqConfig;
import io.dedupq.config.DedupqJson;
import io.dedupq.queue.InvalidTaskException;
import io.dedupq.queue.NotReplicatedException;
import io.dedupq.queue.RedisFullException;
import io.dedupq.queue.StoreUnavailableException;
import io.dedupq.queue.TooFewReplicasException;
import io.dedupq.security.ApiKeyMechanism;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.logging.Logger;

/**
 * Turns whatever ended a request to one of dedupq's endpoints into its application/problem+json
 * answer, with no stack trace in it. Each dedupq resource hands its exceptions here from a
 * mapper of its own, so that an application's own endpoints keep their own error answers.
 */
@ApplicationScoped
public class ProblemResponses {

    private static final Logger LOG = Logger.getLogger(ProblemResponses.class);

    /**
     * Redis down, paused or refused by the circuit breaker: the client should come back later.
     * After a timeout the request may already sit in Redis's socket and run when Redis wakes up,
     * so the answer must not promise that nothing was written: a retry with the same task id is
     * the safe way, and answers 200 duplicate if the first one got through.
     */
    private static final String UNAVAILABLE = "the task store (Redis) did not answer; a write may or may not have taken "
            + "effect. Retry later with the same task id: a task that did get through then answers 200 as a duplicate";

    /**
     * Redis answered OOM (at maxmemory under noeviction): distinct from "did not answer", since
     * the refused script wrote nothing. For a batch spread over several queue partitions the
     * partitions Redis took before it filled up did get their tasks: a retry with the same ids
     * is safe either way.
     */
    private static final String FULL = "the task store (Redis) is out of memory (maxmemory reached) and refused the "
            + "write: what it refused was not written. Retry later with the same task ids (a task that did get in, e.g. "
            + "of another partition in a batch, then answers 200 as a duplicate)";

    /** Written on the master, not yet on enough replicas: a failover now may lose it, so the outcome is unknown. */
    private static final String NOT_REPLICATED = "the task store (Redis) took the write, but fewer replicas than "
            + "dedupq.durability.replicas acknowledged it in time, so a failover may still lose it. Retry later with "
            + "the same task id: a task that is kept then answers 200 as a duplicate";

    /** Refused by a master short of the replicas its min-replicas-to-write asks for: nothing was written. */
    private static final String TOO_FEW_REPLICAS = "the task store (Redis) refused the write: fewer replicas are "
            + "connected to it than its min-replicas-to-write setting asks for, so nothing was written. Retry later "
            + "with the same task id";

    private final ObjectMapper mapper;
    private final DedupqConfig config;

    public ProblemResponses(@DedupqJson ObjectMapper mapper, DedupqConfig config) {
        this.mapper = mapper;
        this.config = config;
    }

    public Response answer(Throwable e) {
        if (e instanceof ProblemException problem) {
            return respond(problem.problem());
        }
        if (e instanceof InvalidTaskException invalid) {
            return respond(Problem.invalid(invalid.errors()));
        }
        if (e instanceof RedisFullException) {
            return retryLater(e, Problem.of(507, "store-full", "Insufficient Storage", FULL));
        }
        if (e instanceof NotReplicatedException) {
            return retryLater(e, Problem.of(503, "not-replicated", "Service unavailable", NOT_REPLICATED));
        }
        if (e instanceof TooFewReplicasException) {
            return retryLater(e, Problem.of(503, "too-few-replicas", "Service unavailable", TOO_FEW_REPLICAS));
        }
        if (e instanceof StoreUnavailableException || e instanceof FaultToleranceException) {
            return retryLater(e, Problem.of(503, "store-unavailable", "Service unavailable", UNAVAILABLE));
        }
        if (e instanceof UnauthorizedException || e instanceof AuthenticationFailedException) {
            return Response.fromResponse(respond(Problem.of(401, "unauthenticated", "Unauthorized",
                    "send a valid API key in the " + ApiKeyMechanism.HEADER + " header")))
                    .header("WWW-Authenticate", "ApiKey header=\"" + ApiKeyMechanism.HEADER + "\"").build();
        }
        if (e instanceof ForbiddenException) {
            return respond(Problem.of(403, "forbidden", "Forbidden", "this API key does not have the role this endpoint needs"));
        }
        if (e instanceof WebApplicationException http) {
            return routing(http);
        }
        LOG.error("unexpected error while handling a request", e);
        return respond(Problem.of(500, "internal", "Internal error", "the request failed; nothing is known to be written"));
    }

    /** A request that matched no method (unknown path, method or media type), as a problem. */
    public Response routing(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        String title = e.getResponse().getStatusInfo().getReasonPhrase();
        return respond(Problem.of(status, title.toLowerCase().replace(' ', '-'), title, e.getMessage()));
    }

    /** A problem the client may retry: logged without a stack trace, answered with Retry-After. */
    private Response retryLater(Throwable e, Problem problem) {
        LOG.warnf("answering %d: %s", problem.status(), e.getMessage());
        return Response.fromResponse(respond(problem)).header("Retry-After", config.api().retryAfterSeconds()).build();
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
