package com.example.shop;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Stands in for the payment provider: answers a reference after {@code shop.bank-latency}. The
 * task id is its idempotency key (a real provider charges a key once).
 */
@ApplicationScoped
public class Bank {

    private final Duration latency;

    public Bank(@ConfigProperty(name = "shop.bank-latency", defaultValue = "0s") Duration latency) {
        this.latency = latency;
    }

    /**
     * Waits out the latency as a blocking socket read would: an interrupt (dedupq's watchdog
     * interrupts a handler whose lock was lost) does not cut the call short, it stays set.
     */
    public String charge(String idempotencyKey, int amountCents) {
        long end = System.nanoTime() + latency.toNanos();
        boolean interrupted = false;
        for (long left = latency.toNanos(); left > 0; left = end - System.nanoTime()) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return "bank-" + UUID.randomUUID();
    }
}
