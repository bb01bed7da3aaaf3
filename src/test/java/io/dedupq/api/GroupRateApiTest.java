package io.dedupq.api;

import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * dedupq.queues.flaky.group-rate-limit=2/1s: no group has more than 2 starts in any 1 s window
 * (counted from the claim times claim.lua wrote on Redis's clock), other groups start meanwhile,
 * every task runs once at its first attempt, and the copies set aside are counted. The block
 * timeout is long here (4 s, under the tests' 5 s shutdown grace), so a parked copy on an idle
 * queue that ran only after it would show the owner sleeping past its group's window.
 */
@QuarkusTest
@TestProfile(GroupRateApiTest.TwoPerSecondPerGroup.class)
@WithTestResource(RedisTestResource.class)
class GroupRateApiTest {

    static final int STARTS = 2;
    static final long WINDOW_MS = 1000;
    static final long BLOCK_TIMEOUT_MS = 4_000;

    public static class TwoPerSecondPerGroup implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dedupq.queues.flaky.group-rate-limit", STARTS + "/" + WINDOW_MS + "ms",
                    "dedupq.worker.block-timeout", BLOCK_TIMEOUT_MS + "ms");
        }
    }

    @Inject
    FlakyHandler handler;

    private static Map<String, Object> grouped(String id, String group) {
        Map<String, Object> task = new HashMap<>(task(id, "flaky", flaky(0)));
        task.put("group", group);
        return task;
    }

    /** The task's record once it succeeded; waits longer than the block timeout, so a late start fails an assertion, not the wait. */
    private static JsonPath succeeded(String id) {
        await().atMost(Duration.ofMillis(4 * BLOCK_TIMEOUT_MS)).pollInterval(Duration.ofMillis(50)).until(
                () -> "succeeded".equals(given().get("/api/tasks/" + id).jsonPath().getString("status")));
        return given().get("/api/tasks/" + id).jsonPath();
    }

    /** The claim times (Redis's clock) of the tasks, in order, after checking each ran once at its first attempt. */
    private List<Long> starts(List<String> ids) {
        List<Long> starts = new ArrayList<>();
        for (String id : ids) {
            JsonPath done = succeeded(id);
            assertEquals(1, done.getInt("attempts"), id + ": set aside, never retried");
            assertEquals(1, handler.executions(id).size(), id + " ran once");
            starts.add(done.getLong("startedAt"));
        }
        starts.sort(null);
        return starts;
    }

    @Test
    void noGroupStartsMoreThanItsLimitPerWindowAndOtherGroupsFlowMeanwhile() {
        long limitedBefore = stat("flaky", "groupRateLimited");
        Map<String, List<String>> groups = new LinkedHashMap<>();
        List<Map<String, Object>> batch = new ArrayList<>();
        for (int g = 0; g < 3; g++) {
            String group = uniqueId("acct");
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                ids.add(uniqueId("g" + g));
                batch.add(grouped(ids.get(i), group));
            }
            groups.put(group, ids);
        }
        submitBatch(batch).then().statusCode(200).body("accepted", equalTo(batch.size()));

        Map<String, List<Long>> starts = new LinkedHashMap<>();
        groups.forEach((group, ids) -> starts.put(group, starts(ids)));
        starts.forEach((group, times) -> {
            for (int i = 0; i + STARTS < times.size(); i++) {
                long span = times.get(i + STARTS) - times.get(i);
                assertTrue(span >= WINDOW_MS, group + ": " + (STARTS + 1) + " starts within " + span + " ms: " + times);
            }
        });
        // each group waits a window after its first two starts; no other group waited for that
        starts.forEach((held, times) -> starts.forEach((other, otherTimes) -> assertTrue(
                otherTimes.get(0) < times.get(STARTS), other + " started only after " + held + " was throttled: " + starts)));
        assertTrue(stat("flaky", "groupRateLimited") - limitedBefore >= 1, "copies were set aside by the limit");
        assertEquals(0, stat("flaky", "groupWaiting"), "no copy is left aside");
    }

    @Test
    void aCopySetAsideOnAnIdleQueueRunsWhenItsWindowFreesWithNothingNewEnqueued() {
        String group = uniqueId("idle");
        List<String> ids = List.of(uniqueId("i0"), uniqueId("i1"), uniqueId("i2"));
        submitBatch(ids.stream().map(id -> grouped(id, group)).toList()).then().statusCode(200)
                .body("accepted", equalTo(ids.size()));

        List<Long> times = starts(ids);

        long waited = times.get(STARTS) - times.get(0);
        assertTrue(waited >= WINDOW_MS, "the third start waited for the window: " + times);
        assertTrue(waited < BLOCK_TIMEOUT_MS - WINDOW_MS,
                "the owner's BLMOVE ended when the group's window freed, not at its " + BLOCK_TIMEOUT_MS + " ms timeout: "
                        + times);
        assertEquals(0, stat("flaky", "groupWaiting"));
    }
}
