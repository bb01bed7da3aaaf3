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
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Through Sentinel: tasks run against the master it names; when that master dies, the sentinel
 * promotes the replica and the app carries on there by itself, with what was replicated
 * (here everything: the test waits for the replica before the kill) still deduplicated.
 */
@QuarkusTest
@TestProfile(SentinelProfile.class)
class SentinelFailoverTest {

    @Inject
    FlakyHandler handler;

    @Test
    void theAppFollowsAFailoverAndStillSkipsReplicatedDuplicates() {
        RedisSentinelGroup group = RedisSentinelTestResource.group();
        String before = uniqueId("before");
        Map<String, Object> first = task(before, "flaky", flaky(0));
        assertEquals(202, submit(first).statusCode());
        awaitStatus(before, "succeeded");
        assertEquals("1", RedisCli.run(group.master().port(), "wait", "1", "5000").trim(),
                "the replica acknowledged everything written so far");

        group.master().stop();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> group.currentMasterPort() == group.replica().port());

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
