package io.dedupq.sentinel;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisSentinelTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code dedupq.durability.replicas=1}: an enqueue answers 202 only after a replica acknowledged
 * it (WAIT), so killing the master (SIGKILL) under a stream of enqueues loses no acknowledged
 * task: the sentinel promotes the replica with the most history, which has every one of them,
 * and each of them runs, once: the workers' outcomes and claims wait for a replica too.
 */
@QuarkusTest
@TestProfile(ReplicatedEnqueueFailoverTest.OneReplica.class)
class ReplicatedEnqueueFailoverTest {

    public static class OneReplica extends SentinelProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dedupq.durability.replicas", "1", "dedupq.durability.replica-timeout", "500ms");
        }
    }

    @Inject
    FlakyHandler handler;

    @Test
    void noAcknowledgedTaskIsLostWhenTheMasterIsKilled() throws InterruptedException {
        FailoverUnderLoad.Outcome outcome = FailoverUnderLoad.run(RedisSentinelTestResource.group(), uniqueId("wait"));
        System.out.printf("replicas=1: %d tasks acknowledged, %d of them lost by the failover; enqueue latency "
                + "before the kill p50 %d ms, p99 %d ms%n", outcome.acknowledged().size(), outcome.lost().size(),
                outcome.percentile(50), outcome.percentile(99));
        assertTrue(outcome.acknowledged().size() >= 20, "acknowledged " + outcome.acknowledged().size());
        assertEquals(List.of(), outcome.lost(), "acknowledged tasks the new master does not know");

        List<String> twice = FailoverUnderLoad.awaitRuns(outcome, handler);
        System.out.printf("replicas=1: %d ran twice%n", twice.size());
        // the workers' calls wait for a replica too: an outcome recorded before the kill is on the new master
        assertEquals(List.of(), twice, "tasks that ran twice");
    }
}
