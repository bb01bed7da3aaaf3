package io.dedupq.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LongSummaryStatistics;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Backoff, on its own: the full delay is base * 2^attempt capped at max, and the delay used is a
 * random 50-100 % of it. Growth and jitter are each checked from the delays themselves, so a
 * backoff that stops growing or loses its jitter fails here.
 */
class BackoffTest {

    private static final int SAMPLES = 2_000;
    private static final Backoff BACKOFF = new Backoff(Duration.ofMillis(400), Duration.ofSeconds(5));

    private static LongSummaryStatistics delays(Backoff backoff, int attempt) {
        return LongStream.range(0, SAMPLES).map(i -> backoff.delay(attempt).toMillis()).summaryStatistics();
    }

    @Test
    void theFullDelayDoublesPerAttemptUpToTheMax() {
        long[] full = {400, 800, 1_600, 3_200, 5_000, 5_000};
        for (int attempt = 0; attempt < full.length; attempt++) {
            LongSummaryStatistics d = delays(BACKOFF, attempt);
            assertTrue(d.getMin() >= full[attempt] / 2 && d.getMax() <= full[attempt],
                    "growth: retry after attempt " + attempt + " must wait " + full[attempt] / 2 + "-" + full[attempt]
                            + " ms (base 400 ms doubled per attempt, capped at 5 s), waited " + d.getMin() + "-" + d.getMax());
        }
    }

    @Test
    void jitterSpreadsTheDelaysOverTheUpperHalfOfTheFullDelay() {
        LongSummaryStatistics d = delays(BACKOFF, 2);
        long distinct = LongStream.range(0, SAMPLES).map(i -> BACKOFF.delay(2).toMillis()).distinct().count();

        assertTrue(d.getMin() < 840 && d.getMax() > 1_560,
                "jitter: delays must cover 800-1600 ms, so retries of many tasks do not arrive together; saw "
                        + d.getMin() + "-" + d.getMax());
        assertTrue(distinct > 400, "jitter: " + SAMPLES + " delays took only " + distinct + " distinct values");
    }

    @Test
    void everyWholeMillisecondFromHalfToTheFullDelayOccurs() {
        Backoff tiny = new Backoff(Duration.ofMillis(4), Duration.ofSeconds(1));
        assertEquals(Set.of(2L, 3L, 4L), LongStream.range(0, SAMPLES).map(i -> tiny.delay(0).toMillis()).boxed()
                .collect(Collectors.toSet()), "jitter: 50-100 % of 4 ms, both ends included");
    }

    @Test
    void attemptsAndBasesTooLargeToDoubleWaitTheMax() {
        for (int attempt : new int[] {29, 31, 63, 64, Integer.MAX_VALUE}) {
            LongSummaryStatistics d = delays(BACKOFF, attempt);
            assertTrue(d.getMin() >= 2_500 && d.getMax() <= 5_000, "attempt " + attempt + ": " + d);
        }
        // 2^40 ms shifted by 30 overflows to 0: still the max, never no wait at all
        Backoff huge = new Backoff(Duration.ofMillis(1L << 40), Duration.ofMinutes(5));
        LongSummaryStatistics d = delays(huge, 30);
        assertTrue(d.getMin() >= 150_000 && d.getMax() <= 300_000, "overflowed base: " + d);
    }

    @Test
    void aMaxBelowTheBaseCapsTheFirstRetryToo() {
        LongSummaryStatistics d = delays(new Backoff(Duration.ofSeconds(10), Duration.ofSeconds(1)), 0);
        assertTrue(d.getMin() >= 500 && d.getMax() <= 1_000, d.toString());
    }
}
