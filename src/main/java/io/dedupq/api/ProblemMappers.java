package io.dedupq.api;

import io.dedupq.queue.InvalidTaskException;
import io.dedupq.queue.StoreUnavailableException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The application-wide mappers, for what is raised outside dedupq's resources: dedupq's own
 * exceptions (from a filter, or from {@code TaskQueue} called by an application's endpoint), and
 * routing errors (no such path, method or media type), which are problems only under dedupq's
 * paths; elsewhere they keep the answer they would have without dedupq.
 */
public class ProblemMappers {

    private final ProblemResponses problems;

    public ProblemMappers(ProblemResponses problems) {
        this.problems = problems;
    }

    @ServerExceptionMapper({ProblemException.class, InvalidTaskException.class, StoreUnavailableException.class})
    public Response dedupqException(RuntimeException e) {
        return problems.answer(e);
    }

    @ServerExceptionMapper
    public Response routing(WebApplicationException e, UriInfo uri) {
        return ApiPaths.owns(uri.getPath()) ? problems.routing(e) : e.getResponse();
    }
}
