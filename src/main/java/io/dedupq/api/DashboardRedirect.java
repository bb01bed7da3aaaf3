package io.dedupq.api;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** {@code /} and {@code /dashboard} lead to the dashboard page (static files under META-INF/resources/dashboard/). */
/** Public, like the page itself: the page's data calls carry the operator key. */
@PermitAll
@Path("/")
public class DashboardRedirect {

    private static final URI PAGE = URI.create("/dashboard/");

    @GET
    @Operation(hidden = true)
    public Response root() {
        return Response.seeOther(PAGE).build();
    }

    @GET
    @Path("dashboard")
    @Operation(hidden = true)
    public Response dashboard() {
        return Response.seeOther(PAGE).build();
    }
}
