package com.example.shop;

import io.dedupq.queue.EnqueueResult;
import io.dedupq.queue.TaskQueue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.util.List;

/** The shop's own endpoints: a sign-up that enqueues its welcome mail in-process, and the outbox. */
@Path("/shop")
public class SignupResource {

    private final TaskQueue tasks;
    private final Outbox outbox;

    public SignupResource(TaskQueue tasks, Outbox outbox) {
        this.tasks = tasks;
        this.outbox = outbox;
    }

    /** Signing up twice sends one mail: the task id is the user's. */
    @POST
    @Path("/signups/{user}")
    public EnqueueResult signUp(@PathParam("user") String user, @QueryParam("email") String email) {
        return tasks.enqueue("welcome-" + user, "welcome-email", new WelcomeEmail(email, user));
    }

    @GET
    @Path("/outbox")
    public List<Outbox.Mail> outbox() {
        return outbox.sent();
    }
}
