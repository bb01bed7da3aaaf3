package com.example.shop;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Stands in for the mail server: every mail sent, in order. */
@ApplicationScoped
public class Outbox {

    /** One mail as it left, with the task it was sent for. */
    public record Mail(String taskId, String to, String text) {
    }

    private final List<Mail> sent = new CopyOnWriteArrayList<>();

    public void send(Mail mail) {
        sent.add(mail);
    }

    public List<Mail> sent() {
        return List.copyOf(sent);
    }
}
