package com.example.shop;

import io.dedupq.lock.OncePerTick;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;

/** A scheduled job that runs on one pod per fire time, however many pods the shop runs. */
@ApplicationScoped
public class WeeklyDigest {

    private final AtomicInteger runs = new AtomicInteger();

    @Scheduled(identity = "weekly-digest", cron = "${shop.digest-cron}", skipExecutionIf = OncePerTick.class)
    void send() {
        runs.incrementAndGet();
    }

    public int runs() {
        return runs.get();
    }
}
