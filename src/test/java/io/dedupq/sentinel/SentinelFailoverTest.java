package io.dedupq.sentinel;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisCli;
import io.dedupq.support.RedisSentinelGroup;
import io.dedupq.support.RedisSentinelTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Through Sentinel, with {@code dedupq.durability.replicas=0} (the default): tasks run against
 * the master it names; when that master is killed (SIGKILL) under a stream of enqueues, the
 * sentinel promotes a replica and the app carries on there by itself. What was replicated before
 * the kill is still deduplicated; tasks acknowledged but not yet replicated may be lost, and are
 * counted (the number is printed; Redis replicates asynchronously, so it may be above 0).
 */
@QuarkusTest
@TestProfile(SentinelProfile.class)
class SentinelFailoverTest {

    @Inject
    FlakyHandler handler;

    @Test
    void theAppFollowsAFailoverAndStillSkipsReplicatedDuplicates() throws InterruptedException {
        RedisSentinelGroup group = RedisSentinelTestResource.group();
        String before = uniqueId("before");
        Map<String, Object> first = task(before, "flaky", flaky(0));
        assertEquals(202, submit(first).statusCode());
        awaitStatus(before, "succeeded");
        assertEquals("2", RedisCli.run(group.master().port(), "wait", "2", "5000").trim(),
                "both replicas acknowledged everything written so far");

        FailoverUnderLoad.Outcome outcome = FailoverUnderLoad.run(group, uniqueId("stream"));
        List<String> twice = FailoverUnderLoad.awaitRuns(outcome, handler);
        System.out.printf("replicas=0: %d tasks acknowledged, %d of them lost by the failover, %d ran twice; "
                + "enqueue latency before the kill p50 %d ms, p99 %d ms%n", outcome.acknowledged().size(),
                outcome.lost().size(), twice.size(), outcome.percentile(50), outcome.percentile(99));

        String after = uniqueId("after");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> accepted(submit(task(after, "flaky", flaky(0)))));
        awaitStatus(after, "succeeded");
        Response again = submit(first);
        assertEquals(200, again.statusCode(), "the finished task is known on the new master: " + again.asString());
        assertEquals(Boolean.TRUE, again.jsonPath().get("duplicate"));
        assertEquals(1, handler.executions(before).size());
        assertEquals(1, handler.executions(after).size());
    }

    /** 202, or 200 duplicate when an earlier try was written but its answer was a 503. */
    private static boolean accepted(Response response) {
        return response.statusCode() == 202 || response.statusCode() == 200;
    }
}
