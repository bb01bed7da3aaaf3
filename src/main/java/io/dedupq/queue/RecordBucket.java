package io.dedupq.queue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The dedup bucket of a task id as lua/include/records.lua computes it: the first 32 bits of the
 * id's SHA-1, unsigned, modulo the partition's bucket count. The pods compute it for every id
 * they send with an enqueue or an outcome, so that Redis, which runs all scripts on one thread,
 * does not; the script uses it only while the count it was computed for is the stored one.
 */
public final class RecordBucket {

    private static final ThreadLocal<MessageDigest> SHA1 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-1", e);
        }
    });

    private RecordBucket() {
    }

    /** The bucket number, as text, of {@code id} among {@code buckets}. */
    public static String of(String id, int buckets) {
        byte[] sha = SHA1.get().digest(id.getBytes(StandardCharsets.UTF_8));
        long first = ((sha[0] & 0xffL) << 24) | ((sha[1] & 0xffL) << 16) | ((sha[2] & 0xffL) << 8) | (sha[3] & 0xffL);
        return Long.toString(first % buckets);
    }
}
