package io.dedupq.queue;

import static io.dedupq.support.Api.account;
import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.openAccount;
import static io.dedupq.support.Api.payment;
import static io.dedupq.support.Api.stat;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.submitBatch;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.handler.FieldError;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What POST /api/tasks, POST /api/tasks/batch, GET /api/tasks/{id} and GET /api/queues answer, and
 * the in-process {@link TaskQueue} where it decides the same.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class SubmissionAnswersTest {

    private static final String PROBLEM_JSON = "application/problem+json";

    @Inject
    TaskQueue tasks;

    @Inject
    ObjectMapper mapper;

    @Test
    void sameIdWithAnotherPayloadIsAConflictAndEnqueuesNothing() {
        String accountId = openAccount("EUR", "50.00");
        String id = uniqueId("pay");
        long enqueuedBefore = stat("payment", "enqueued");
        submit(task(id, "payment", payment(accountId, "1.00"))).then().statusCode(202);

        submit(task(id, "payment", payment(accountId, "2.00"))).then()
                .statusCode(409)
                .contentType(startsWith(PROBLEM_JSON))
                .body("status", equalTo(409))
                .body("type", equalTo("urn:dedupq:problem:id-conflict"))
                .body("detail", containsString(id));

        awaitStatus(id, "succeeded");
        // nothing else is enqueued in the payment queue while this test runs (tests run one at a time)
        assertEquals(1, stat("payment", "enqueued") - enqueuedBefore, "only the first submission was enqueued");
        JsonPath account = account(accountId);
        assertEquals(List.of(id), account.getList("ledger.taskId"), "one debit: " + account.prettify());
        assertEquals(0, new BigDecimal("1.00").compareTo(account.get("ledger[0].amount")),
                "of the first payload's amount: " + account.prettify());
        assertEquals(0, new BigDecimal("49.00").compareTo(account.get("balance")));
    }

    /** The flaky queue does not set require-id: a missing id and an explicit null are given a UUID alike. */
    @ParameterizedTest
    @ValueSource(strings = {"{\"type\":\"flaky\",\"payload\":{\"failures\":0}}",
            "{\"id\":null,\"type\":\"flaky\",\"payload\":{\"failures\":0}}"})
    void taskWithoutIdGetsAGeneratedUuid(String task) {
        String id = given().contentType(ContentType.JSON).body(task).post("/api/tasks").then().statusCode(202)
                .body("queue", equalTo("flaky")).body("status", equalTo("queued")).extract().path("id");

        assertNotNull(id);
        assertEquals(id, UUID.fromString(id).toString(), "the id is a UUID in its canonical form");
        awaitStatus(id, "succeeded");
    }

    /** The in-process API validates as HTTP does: payment sets require-id, flaky does not. */
    @Test
    void taskQueueInProcessRefusesATaskWithoutIdOnAQueueThatRequiresOne() {
        JsonNode payment = mapper.valueToTree(payment(openAccount("EUR", "10.00"), "1.00"));
        String withId = uniqueId("pay-in-process");
        long enqueuedBefore = stat("payment", "enqueued");

        InvalidTaskException single = assertThrows(InvalidTaskException.class,
                () -> tasks.enqueue(new TaskSubmission(null, "payment", payment)));
        InvalidTaskException batch = assertThrows(InvalidTaskException.class, () -> tasks.enqueueAll(List.of(
                new TaskSubmission(withId, "payment", payment), new TaskSubmission(null, "payment", payment))));

        assertEquals(List.of("id"), single.errors().stream().map(FieldError::field).toList());
        assertEquals(List.of("tasks[1].id"), batch.errors().stream().map(FieldError::field).toList());
        assertTrue(single.errors().get(0).message().contains("required"), single.errors().toString());
        assertEquals(0, stat("payment", "enqueued") - enqueuedBefore, "nothing enqueued");
        given().get("/api/tasks/" + withId).then().statusCode(404);
        EnqueueResult flaky = tasks.enqueue(new TaskSubmission(null, "flaky", mapper.valueToTree(flaky(0))));
        assertEquals(flaky.id(), UUID.fromString(flaky.id()).toString(), "flaky gets a UUID");
        awaitStatus(flaky.id(), "succeeded");
    }

    @Test
    void batchAnswersPerTaskInOrderWithARepeatedIdAsDuplicate() {
        String a = uniqueId("batch-a");
        String b = uniqueId("batch-b");
        String c = uniqueId("batch-c");

        JsonPath reply = submitBatch(List.of(
                task(a, "flaky", flaky(0)),
                task(b, "flaky", flaky(0)),
                task(c, "flaky", flaky(0)),
                task(a, "flaky", flaky(0))))
                .then().statusCode(200).extract().jsonPath();

        assertEquals(List.of(a, b, c, a), reply.getList("results.id"));
        assertEquals(List.of(202, 202, 202, 200), reply.getList("results.code"));
        assertEquals(List.of(false, false, false, true), reply.getList("results.duplicate"));
        assertEquals(List.of(false, false, false, false), reply.getList("results.conflict"));
        assertEquals(3, reply.getInt("accepted"));
        assertEquals(1, reply.getInt("duplicates"));
        assertEquals(0, reply.getInt("conflicts"));
        for (String id : List.of(a, b, c)) {
            assertEquals(1, awaitStatus(id, "succeeded").getInt("attempts"), id + " ran once");
        }
    }

    @Test
    void unknownTaskIsNotFoundAsProblem() {
        String id = uniqueId("never-submitted");

        given().get("/api/tasks/" + id).then()
                .statusCode(404)
                .contentType(startsWith(PROBLEM_JSON))
                .body("status", equalTo(404))
                .body("detail", containsString(id));
    }

    @Test
    void queuesReportEveryCountPerQueue() {
        List<Map<String, Object>> queues = given().get("/api/queues").then().statusCode(200)
                .extract().jsonPath().getList("$");
        List<String> names = queues.stream().map(q -> (String) q.get("queue")).toList();
        assertTrue(names.containsAll(List.of("payment", "voucher", "flaky")), "queues: " + names);
        for (Map<String, Object> queue : queues) {
            for (String count : List.of("pending", "processing", "delayed", "dead", "succeeded", "failed",
                    "duplicatesSkipped")) {
                Object value = queue.get(count);
                assertTrue(value instanceof Number && ((Number) value).longValue() >= 0,
                        queue.get("queue") + "." + count + " is a count: " + value);
            }
        }
    }

    @Test
    void queueCountsFollowWhatHappens() {
        String ok = uniqueId("count-ok");
        String refused = uniqueId("count-refused");
        long succeeded = stat("flaky", "succeeded");
        long failed = stat("flaky", "failed");

        submit(task(ok, "flaky", flaky(0))).then().statusCode(202);
        submit(task(refused, "flaky", Map.of("failures", 0, "permanent", true))).then().statusCode(202);
        awaitStatus(ok, "succeeded");
        awaitStatus(refused, "failed");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertEquals(1, stat("flaky", "succeeded") - succeeded);
            assertEquals(1, stat("flaky", "failed") - failed);
        });
    }
}
