package io.dedupq.queue;

import java.nio.charset.StandardCharsets;

/**
 * The Redis Cluster hash slot of a key: CRC16 (XMODEM) of the key, or of the text between the
 * first '{' and the next '}' when that is not empty, modulo 16384. Used to split a pipeline
 * into one write per slot, since a cluster node executes only keys of the slots it serves.
 */
public final class HashSlot {

    public static final int SLOTS = 16384;

    private HashSlot() {
    }

    public static int of(String key) {
        return of(key.getBytes(StandardCharsets.UTF_8));
    }

    public static int of(byte[] key) {
        int start = 0;
        int end = key.length;
        int open = indexOf(key, (byte) '{', 0);
        if (open >= 0) {
            int close = indexOf(key, (byte) '}', open + 1);
            if (close > open + 1) {
                start = open + 1;
                end = close;
            }
        }
        return crc16(key, start, end) % SLOTS;
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    /** CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0, no reflection. */
    private static int crc16(byte[] bytes, int start, int end) {
        int crc = 0;
        for (int i = start; i < end; i++) {
            crc ^= (bytes[i] & 0xff) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            crc &= 0xffff;
        }
        return crc;
    }
}
