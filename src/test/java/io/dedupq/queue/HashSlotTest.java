package io.dedupq.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Redis Cluster's key slot: CRC16 (XMODEM) mod 16384 of the key, or of its hash tag. Every
 * expected slot is what a cluster-enabled redis-server 7.0 answered to CLUSTER KEYSLOT.
 */
class HashSlotTest {

    @ParameterizedTest(name = "[{0}] -> slot {1}")
    @CsvSource({
        // the CRC16 XMODEM check value of "123456789" is 0x31C3 = 12739
        "123456789, 12739",
        "foo, 12182",
        "bar, 5061",
        "'', 0",
        // a tag: only user1000 is hashed, as for the key user1000 itself
        "{user1000}.following, 3443",
        "user1000, 3443",
        // the first tag counts
        "foo{bar}{zap}, 5061",
        "}foo{bar}, 5061",
        // an empty tag does not count: the whole key is hashed
        "foo{}{bar}, 8363",
        // the tag ends at the first closing brace after the first opening one
        "foo{{bar}}zap, 4015",
        // no closing brace, or no opening one: the whole key
        "foo{bar, 15278",
        "foo}bar, 7223",
    })
    void slotsAsRedisComputesThem(String key, int slot) {
        assertEquals(slot, HashSlot.of(key));
    }
}
