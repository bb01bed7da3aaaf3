package io.dedupq.queue;

import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dedupq.support.Configs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The key layout of README's table, spelled by RedisKeys alone: every key of a queue carries the
 * queue's hash tag (one cluster slot per queue, as the scripts need), every key of an account or
 * a campaign the resource's own.
 */
class RedisKeysTest {

    private final RedisKeys keys = new RedisKeys(Configs.dedupq(Map.of()));

    @Test
    void queueKeysShareTheQueuesHashTag() {
        Partition payment = whole("payment");
        assertEquals("{dedupq:payment}:", keys.base(payment));
        assertEquals("{dedupq:payment}:pending", keys.pending(payment));
        assertEquals("{dedupq:payment}:processing:w-1", keys.processing(payment, "w-1"));
        assertEquals("{dedupq:payment}:delayed", keys.delayed(payment));
        assertEquals("{dedupq:payment}:dead", keys.dead(payment));
        assertEquals("{dedupq:payment}:lock:t-1", keys.lock(payment, "t-1"));
        assertEquals("{dedupq:payment}:records", keys.records(payment));
        assertEquals("{dedupq:payment}:task:t-1", keys.task(payment, "t-1"));
        assertEquals("{dedupq:payment}:fence", keys.fence(payment));
        assertEquals("{dedupq:payment}:stats", keys.stats(payment));
        assertEquals("{dedupq:payment}:workers", keys.workers(payment));
        int slot = HashSlot.of(keys.pending(payment));
        for (String key : List.of(keys.processing(payment, "w-1"), keys.lock(payment, "t-1"), keys.task(payment, "x"),
                keys.workers(payment))) {
            assertEquals(slot, HashSlot.of(key), key + " is in the queue's slot");
        }
    }

    @Test
    void aPartitionOfAPartitionedQueueHasTheHashTagOfItsName() {
        Partition third = new Partition("payment", 3, 8);
        assertEquals("payment#3", third.name());
        assertEquals("payment", whole("payment").name(), "a queue of one partition keeps its own name");
        assertEquals("{dedupq:payment#3}:", keys.base(third));
        assertEquals("{dedupq:payment#3}:pending", keys.pending(third));
        assertEquals("{dedupq:payment#3}:lock:t-1", keys.lock(third, "t-1"));
        assertEquals(HashSlot.of(keys.pending(third)), HashSlot.of(keys.processing(third, "w-1")));
    }

    @Test
    void aPartitionOutsideItsQueueIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Partition("payment", 8, 8));
        assertThrows(IllegalArgumentException.class, () -> new Partition("payment", -1, 8));
        assertThrows(IllegalArgumentException.class, () -> new Partition("payment", 0, 0));
    }

    @Test
    void globalAndResourceKeys() {
        assertEquals("dedupq:workers", keys.workers());
        assertEquals("dedupq:joblock:reaper", keys.jobLock("reaper"));
        assertEquals("dedupq:rollups:by-tick", keys.rollups());
        assertEquals("dedupq:account:{acc-1}", keys.account("acc-1"));
        assertEquals("dedupq:account:{acc-1}:ledger", keys.accountLedger("acc-1"));
        assertEquals("dedupq:account:{acc-1}:applied", keys.accountApplied("acc-1"));
        assertEquals("dedupq:campaign:{c-1}", keys.campaign("c-1"));
        assertEquals("dedupq:campaign:{c-1}:vouchers", keys.campaignVouchers("c-1"));
        assertEquals("dedupq:campaign:{c-1}:issued", keys.campaignIssued("c-1"));
        assertEquals("dedupq:campaign:{c-1}:codes", keys.campaignCodes("c-1"));
        assertEquals(HashSlot.of(keys.account("acc-1")), HashSlot.of(keys.accountApplied("acc-1")),
                "debit.lua touches one slot");
    }

    @Test
    void theConfiguredPrefixStartsEveryKey() {
        RedisKeys acme = new RedisKeys(Configs.dedupq(Map.of("dedupq.key-prefix", "acme")));

        assertEquals("{acme:q}:pending", acme.pending(whole("q")));
        assertEquals("acme:workers", acme.workers());
        assertEquals("acme:account:{a}", acme.account("a"));
    }
}
