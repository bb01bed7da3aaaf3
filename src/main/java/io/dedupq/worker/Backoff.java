package io.dedupq.worker;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Exponential backoff with jitter: base * 2^attempt capped at max, then a random 50–100 %. */
public record Backoff(Duration base, Duration max) {

    public Duration delay(int attempt) {
        long cap = max.toMillis();
        long grown = base.toMillis() << Math.min(attempt, 30);
        long full = grown <= 0 || grown > cap ? cap : grown;
        return Duration.ofMillis(full / 2 + ThreadLocalRandom.current().nextLong(full / 2 + 1));
    }
}
