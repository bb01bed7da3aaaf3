package io.dedupq.support;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RecordBucket;
import io.dedupq.queue.RecordMark;
import io.dedupq.queue.RedisKeys;
import java.util.function.BiFunction;

/**
 * A finished task id's dedup record as the scripts keep it (lua/include/records.lua), for tests:
 * the field {@code id} of the bucket {@code records:<b>}, valued expiresAt * 10 + mark. Tests read
 * it with their own client's HGET ({@code hget}: key, field -> value or null).
 */
public record DedupRecords(RedisKeys keys, Partition partition, int buckets, BiFunction<String, String, String> hget) {

    /** The records of a partition whose layout has the default bucket count. */
    public DedupRecords(RedisKeys keys, Partition partition, BiFunction<String, String, String> hget) {
        this(keys, partition, DedupqConfig.QueueConfig.DEFAULT_DEDUP_BUCKETS, hget);
    }

    /** The bucket that holds id's record (the scripts and the pods compute it alike: see RecordBucket). */
    public String bucket(String id) {
        return keys.base(partition) + "records:" + RecordBucket.of(id, buckets);
    }

    /** The record's raw value, null when there is none (expired or not). */
    public String value(String id) {
        return hget.apply(bucket(id), id);
    }

    public boolean exists(String id) {
        return value(id) != null;
    }

    /** The outcome the record holds, null without a record. */
    public String outcome(String id) {
        String value = value(id);
        return value == null ? null : RecordMark.outcome(Long.toString(Long.parseLong(value) % 10));
    }

    /** When the record stops counting (ms, Redis's clock); -1 without a record. */
    public long expiresAt(String id) {
        String value = value(id);
        return value == null ? -1 : Long.parseLong(value) / 10;
    }

    /** The value records.lua writes for a record of {@code mark} (1 succeeded .. 4 cancelled) until {@code expiresAt}. */
    public static String value(long expiresAt, int mark) {
        return Long.toString(expiresAt * 10 + mark);
    }
}
