package io.dedupq.support;

import static io.dedupq.support.Api.stat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

/**
 * A queue's counts of copies dropped without running, by reason (done, locked, stale), read
 * before a test acts; afterwards it waits for the copies the test expects to be dropped and
 * checks that each was dropped for its own reason.
 */
public record Skips(String queue, long done, long locked, long stale) {

    private static final Duration WAIT = Duration.ofSeconds(15);

    public static Skips of(String queue) {
        return new Skips(queue, stat(queue, "skippedDone"), stat(queue, "skippedLocked"), stat(queue, "skippedStale"));
    }

    /** Waits until exactly these many more copies were dropped for each reason. */
    public void awaitDropped(long moreDone, long moreLocked, long moreStale) {
        awaitAsserted(() -> assertAll("copies dropped without running, by reason",
                () -> assertEquals(moreDone, stat(queue, "skippedDone") - done,
                        "dropped as done (a duplicate of a finished task, by its done marker)"),
                () -> assertEquals(moreLocked, stat(queue, "skippedLocked") - locked,
                        "dropped as locked (a duplicate of a task running right now)"),
                () -> assertEquals(moreStale, stat(queue, "skippedStale") - stale,
                        "dropped as stale (a copy of an earlier attempt than the task's)")));
    }

    /** Waits until {@code more} copies were dropped as done or locked (which, depends on timing), none as stale. */
    public void awaitDoneOrLocked(long more) {
        awaitAsserted(() -> assertAll("copies dropped without running, by reason",
                () -> assertEquals(more, stat(queue, "skippedDone") - done + stat(queue, "skippedLocked") - locked,
                        "dropped as done or locked"),
                () -> assertEquals(0, stat(queue, "skippedStale") - stale, "dropped as stale")));
    }

    private void awaitAsserted(Runnable assertion) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).untilAsserted(assertion::run);
    }
}
