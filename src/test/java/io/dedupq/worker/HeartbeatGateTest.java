package io.dedupq.worker;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.RedisProcess;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reaper's wait after an interruption ({@link Heartbeat#beatingFor()}): a freeze of Redis
 * shorter than the expiry less one interval (2 s and 300 ms in the test profile) holds a beat up
 * longer than an interval but ages no heartbeat enough to matter, so the wait goes on; a freeze
 * as long as the expiry starts it again.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class HeartbeatGateTest {

    private final RedisProcess redis = RedisTestResource.redis();

    @Inject
    Heartbeat heartbeat;

    @AfterEach
    void redisRunsAgain() {
        RedisTestResource.runAgain();
    }

    /** Returns System.nanoTime() read just before Redis is resumed: no beat can land before it. */
    private long freeze(Duration length) throws InterruptedException {
        redis.pause();
        long thawing;
        try {
            Thread.sleep(length.toMillis());
        } finally {
            thawing = System.nanoTime();
            redis.resume();
        }
        return thawing;
    }

    @Test
    void aBeatHeldUpLongerThanAnIntervalIsNoInterruption() throws InterruptedException {
        await().atMost(Duration.ofSeconds(20)).until(() -> heartbeat.beatingFor().toMillis() >= 1_000);
        Duration before = heartbeat.beatingFor();

        // 650 ms: every beat interval (300 ms) overlaps it, so a beat in flight waits > 300 ms
        freeze(Duration.ofMillis(650));
        Thread.sleep(1_000);

        assertTrue(heartbeat.beatingFor().compareTo(before.plusMillis(1_500)) >= 0,
                "still beating since before the freeze: " + before + " then " + heartbeat.beatingFor());
    }

    @Test
    void aFreezeAsLongAsTheExpiryStartsTheWaitAgain() throws InterruptedException {
        await().atMost(Duration.ofSeconds(20)).until(() -> heartbeat.beatingFor().toMillis() >= 3_000);

        long thawed = freeze(Duration.ofMillis(2_500));

        // until the first beat after the thaw lands, the count still runs from before the freeze; a gate that
        // does not restart keeps it longer than the time since the thaw for good
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            // read in this order: the beating time first, so a later thaw-relative reading bounds it
            Duration beating = heartbeat.beatingFor();
            Duration sinceThaw = Duration.ofNanos(System.nanoTime() - thawed);
            assertTrue(beating.compareTo(Duration.ZERO) > 0 && beating.compareTo(sinceThaw) <= 0,
                    "beating counted from after the freeze: " + beating + " within " + sinceThaw);
        });
    }
}
