package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.openAccount;
import static io.dedupq.support.Api.payment;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.TaskQueue;
import io.dedupq.queue.TaskSubmission;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.OnePerGroupHandler;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A queue of its own with dedupq.queues.one-per-group.group-concurrency=1 (the test configuration): tasks of one group run one at a time (their
 * executions, from claim to recorded outcome on Redis's clock, never overlap) while another
 * group and ungrouped tasks run meanwhile; the copies waiting are counted in groupWaiting. The
 * group comes from the submit API's {@code group} (checked like an id), from TaskSubmission,
 * or from the handler (a payment's account id).
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class GroupApiTest {

    @Inject
    FlakyHandler handler;

    @Inject
    TaskQueue queues;

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    private static Map<String, Object> grouped(String id, String group, int sleepMillis) {
        Map<String, Object> task = new HashMap<>(Map.of("id", id, "type", OnePerGroupHandler.TYPE,
                "payload", Map.of("failures", 0, "sleepMillis", sleepMillis)));
        if (group != null) {
            task.put("group", group);
        }
        return task;
    }

    private record Run(String id, long startedAt, long finishedAt) {
    }

    @Test
    void oneGroupRunsOneAtATimeWhileOthersFlow() {
        String busy = uniqueId("acct");
        List<String> serial = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            serial.add(uniqueId("serial"));
            submit(grouped(serial.get(i), busy, 1500)).then().statusCode(202);
        }
        String other = uniqueId("other");
        String loose = uniqueId("loose");
        queues.enqueue(new TaskSubmission(other, OnePerGroupHandler.TYPE, new ObjectMapper().valueToTree(Map.of("failures", 0)))
                .withGroup(uniqueId("acct")));
        submit(grouped(loose, null, 0)).then().statusCode(202);
        await().atMost(Duration.ofSeconds(10)).until(() -> stat(OnePerGroupHandler.TYPE, "groupWaiting") >= 1);

        JsonPath otherDone = awaitStatus(other, "succeeded");
        awaitStatus(loose, "succeeded");
        List<Run> runs = new ArrayList<>();
        for (String id : serial) {
            JsonPath done = awaitStatus(id, "succeeded");
            assertEquals(1, handler.executions(id).size(), id + " ran once");
            runs.add(new Run(id, done.getLong("startedAt"), done.getLong("finishedAt")));
        }
        runs.sort(Comparator.comparingLong(Run::startedAt));
        for (int i = 1; i < runs.size(); i++) {
            assertTrue(runs.get(i).startedAt() >= runs.get(i - 1).finishedAt(),
                    "one of the group at a time, on Redis's clock: " + runs);
        }
        assertTrue(otherDone.getLong("finishedAt") < runs.get(runs.size() - 1).startedAt(),
                "another group did not wait for the busy one: " + otherDone.prettify() + runs);
        assertEquals(0, stat(OnePerGroupHandler.TYPE, "groupWaiting"), "no copy is left aside");
    }

    @Test
    void aGroupThatBreaksTheIdRuleIsA400NamingItAndNothingIsEnqueued() {
        String id = uniqueId("bad-group");
        given().contentType(ContentType.JSON).body(grouped(id, "no spaces", 0)).post("/api/tasks").then()
                .statusCode(400).body("errors.field", hasItem("group"));
        Map<String, Object> numeric = grouped(id, null, 0);
        numeric.put("group", 7);
        given().contentType(ContentType.JSON).body(numeric).post("/api/tasks").then()
                .statusCode(400).body("errors.field", hasItem("group"));
        submitBatch(List.of(grouped(uniqueId("ok"), "fine", 0), grouped(id, "", 0))).then()
                .statusCode(400).body("errors.field", hasItem("tasks[1].group"));
        given().get("/api/tasks/" + id).then().statusCode(404);
    }

    @Test
    void aPaymentsGroupIsItsAccount() {
        String account = openAccount("EUR", "10.00");
        String id = uniqueId("pay");
        queues.pause("payment");
        try {
            submit(Map.of("id", id, "type", "payment", "payload", payment(account, "1.00"))).then().statusCode(202);
            // an owner already blocked in BLMOVE takes the copy, and claim.lua puts it back on the paused queue
            String envelope = await().atMost(Duration.ofSeconds(5)).until(
                    () -> redis.lrange(keys.pending(whole("payment"))).stream().filter(e -> e.contains(id)).findFirst(),
                    Optional::isPresent).orElseThrow();
            assertTrue(envelope.contains("\"group\":\"" + account + "\""), envelope);
        } finally {
            queues.resume("payment");
        }
        awaitStatus(id, "succeeded");
    }
}
