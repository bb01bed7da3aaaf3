package com.example.shop;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Task type {@code welcome-email}: dedupq routes it to the queue of the same name (no
 * configuration needed), runs it once per task id however often the task is sent, and retries
 * it when it throws.
 */
@ApplicationScoped
public class WelcomeEmailHandler implements TaskHandler<WelcomeEmail> {

    private final Outbox outbox;

    public WelcomeEmailHandler(Outbox outbox) {
        this.outbox = outbox;
    }

    @Override
    public String type() {
        return "welcome-email";
    }

    @Override
    public Class<WelcomeEmail> payloadType() {
        return WelcomeEmail.class;
    }

    @Override
    public Object handle(WelcomeEmail mail, ExecutionContext ctx) {
        outbox.send(new Outbox.Mail(ctx.taskId(), mail.to(), "Welcome, " + mail.name() + "!"));
        return null;
    }
}
