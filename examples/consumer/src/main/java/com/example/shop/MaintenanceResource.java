package com.example.shop;

import io.dedupq.lock.DistributedLock;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.Map;

/** Work that must not run on two pods at once, under dedupq's {@link DistributedLock}. */
@Path("/shop/maintenance")
public class MaintenanceResource {

    private final DistributedLock lock;
    private final WeeklyDigest digest;

    public MaintenanceResource(DistributedLock lock, WeeklyDigest digest) {
        this.lock = lock;
        this.digest = digest;
    }

    /** 200 when this call rebuilt the catalogue, 409 while another pod is at it. */
    @POST
    @Path("/reindex")
    public Response reindex() {
        boolean ran = lock.execute("shop:lock:reindex", Duration.ofMinutes(5), () -> { /* rebuild the search index */ });
        return Response.status(ran ? 200 : 409).entity(Map.of("ran", ran)).build();
    }

    @GET
    @Path("/digests")
    public Map<String, Integer> digests() {
        return Map.of("runs", digest.runs());
    }
}
