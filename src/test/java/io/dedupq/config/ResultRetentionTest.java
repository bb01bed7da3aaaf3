package io.dedupq.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.support.Configs;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The result retention in effect: as set, or the dedup window where that is shorter. */
class ResultRetentionTest {

    @ParameterizedTest(name = "retention {0}, window {1}: {2}")
    @CsvSource({"'', '', 1h", "10m, '', 10m", "'', 3m, 3m", "2h, 1h, 1h", "1s, 6s, 1s"})
    void theRetentionNeverOutlastsTheDedupWindow(String retention, String window, String expected) {
        Map<String, String> settings = new HashMap<>(Map.of("dedupq.queues.flaky.concurrency", "1"));
        if (!retention.isEmpty()) {
            settings.put("dedupq.queues.flaky.result-retention", retention);
        }
        if (!window.isEmpty()) {
            settings.put("dedupq.queues.flaky.dedup-window", window);
        }
        DedupqConfig.QueueConfig queue = Configs.dedupq(settings).queues().get("flaky");

        assertEquals(Duration.parse("PT" + expected.toUpperCase()), DedupqConfig.QueueConfig.retention(queue));
    }
}
