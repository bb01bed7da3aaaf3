package io.dedupq.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.DedupqConfig;
import io.dedupq.support.Configs;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * dedupq.queues.<q>.group-rate-limit read as the app reads it: N/duration, a wrong value stops
 * the start naming the key, and a partitioned queue refuses it like the other limits.
 */
class GroupRateLimitConfigTest {

    private static final String KEY = "dedupq.queues.flaky.group-rate-limit";

    private static DedupqConfig.QueueConfig flaky(Map<String, String> settings) {
        return Configs.dedupq(settings).queues().get("flaky");
    }

    @Test
    void readsNPerDurationAndIsOffWhenUnset() {
        assertEquals(Optional.of(new RateLimit(2, Duration.ofSeconds(1))), flaky(Map.of(KEY, "2/1s")).groupRateLimit());
        assertEquals(Optional.empty(), flaky(Map.of("dedupq.queues.flaky.concurrency", "1")).groupRateLimit());
    }

    @Test
    void aWrongValueStopsTheStartNamingTheKey() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> flaky(Map.of(KEY, "2 per second")));
        String all = messages(e);
        assertTrue(all.contains(KEY) && all.contains("is not a rate limit"), all);
    }

    @Test
    void aPartitionedQueueRefusesIt() {
        DedupqConfig.QueueConfig settings = flaky(Map.of(KEY, "2/1s"));
        QueuePartitions.refuseUnworkable("flaky", 1, settings);

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> QueuePartitions.refuseUnworkable("flaky", 4, settings));
        assertTrue(e.getMessage().contains("group-rate-limit need partitions = 1, got 4"), e.getMessage());
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append(" / ");
        }
        return all.toString();
    }
}
