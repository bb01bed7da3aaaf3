package com.example.shop;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Stands in for the payment provider: answers a reference after {@code shop.bank-latency}. */
@ApplicationScoped
public class Bank {

    private final Duration latency;

    public Bank(@ConfigProperty(name = "shop.bank-latency", defaultValue = "0s") Duration latency) {
        this.latency = latency;
    }

    public String charge(String orderId, int amountCents) throws InterruptedException {
        Thread.sleep(latency.toMillis());
        return "bank-" + UUID.randomUUID();
    }
}
