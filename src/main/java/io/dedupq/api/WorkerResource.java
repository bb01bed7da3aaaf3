package io.dedupq.api;

import io.dedupq.worker.WorkerDirectory;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** The worker processes and the age of their last heartbeat. */
@Path("/api/workers")
@Produces(MediaType.APPLICATION_JSON)
public class WorkerResource {

    private final WorkerDirectory directory;

    public WorkerResource(WorkerDirectory directory) {
        this.directory = directory;
    }

    @GET
    public List<WorkerDirectory.WorkerView> workers() {
        return directory.workers();
    }
}
