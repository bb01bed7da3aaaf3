package io.dedupq.support;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.Partition;
import io.dedupq.queue.RecordMark;
import io.dedupq.queue.RedisKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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

    /** The bucket that holds id's record: the first 32 bits of its SHA-1 modulo the bucket count. */
    public String bucket(String id) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-1").digest(id.getBytes(StandardCharsets.UTF_8));
            long first = ((sha[0] & 0xffL) << 24) | ((sha[1] & 0xffL) << 16) | ((sha[2] & 0xffL) << 8) | (sha[3] & 0xffL);
            return keys.base(partition) + "records:" + (first % buckets);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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
