package io.dedupq.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/** {@code /} and {@code /dashboard} lead to the dashboard page (static files under META-INF/resources/dashboard/). */
@Path("/")
public class DashboardRedirect {

    private static final URI PAGE = URI.create("/dashboard/");

    @GET
    public Response root() {
        return Response.seeOther(PAGE).build();
    }

    @GET
    @Path("dashboard")
    public Response dashboard() {
        return Response.seeOther(PAGE).build();
    }
}
