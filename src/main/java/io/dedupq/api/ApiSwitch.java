package io.dedupq.api;

import io.dedupq.config.DedupqConfig;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * A worker-only pod ({@code dedupq.api.enabled=false}) answers dedupq's API paths with 404
 * while its HTTP port keeps serving probes (and the application's own endpoints).
 */
public class ApiSwitch {

    private final DedupqConfig config;

    public ApiSwitch(DedupqConfig config) {
        this.config = config;
    }

    @ServerRequestFilter(preMatching = true)
    public Response refuseWhenDisabled(ContainerRequestContext request) {
        if (config.api().enabled() || !ApiPaths.api(request.getUriInfo().getPath())) {
            return null;
        }
        throw new ProblemException(Problem.of(404, "api-disabled", "Not Found",
                "the API is disabled on this pod (dedupq.api.enabled=false)"));
    }
}
