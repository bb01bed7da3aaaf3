package io.dedupq.queue;

import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.config.DedupqConfig.QueueConfig;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A partition whose stored dedup bucket count is not the pod's setting is named, and only such a one. */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class RecordsLayoutCheckTest {

    @Inject
    RecordsLayoutCheck check;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    @AfterEach
    void layoutsAsTheScriptsMakeThem() {
        redis.hset(keys.records(whole("flaky")), "buckets", Integer.toString(QueueConfig.DEFAULT_DEDUP_BUCKETS));
        redis.del(keys.records(whole("doomed")));
    }

    @Test
    void aStoredCountOtherThanTheSettingIsNamed() {
        redis.hset(keys.records(whole("flaky")), "buckets", "7", "legacyUntil", "0");
        redis.hset(keys.records(whole("doomed")), "buckets", Integer.toString(QueueConfig.DEFAULT_DEDUP_BUCKETS),
                "legacyUntil", "0");

        List<RecordsLayoutCheck.Mismatch> found = check.mismatches().await().atMost(Duration.ofSeconds(5));

        assertEquals(List.of(new RecordsLayoutCheck.Mismatch(whole("flaky"), 7, QueueConfig.DEFAULT_DEDUP_BUCKETS)),
                found.stream().filter(m -> m.partition().equals(whole("flaky")) || m.partition().equals(whole("doomed")))
                        .toList(),
                "the stored count is the one used; the same count, or none stored yet, is not reported");
    }
}
