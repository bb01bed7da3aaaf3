package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.openAccount;
import static io.dedupq.support.Api.payment;
import static io.dedupq.support.Api.post;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Hundreds of hostile requests, and garbage pushed straight onto a pending list: every request
 * gets a 4xx problem (never a 5xx, never a stack trace), nothing is enqueued, every garbage
 * entry ends dead-lettered or failed, and afterwards the service still runs a valid payment.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class HostileInputTest {

    private static final String QUEUE = "payment";

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    @Inject
    ObjectMapper mapper;

    @Test
    void everyHostileRequestGetsAProblemAndNothingIsEnqueued() {
        List<BadRequest> corpus = HostileCorpus.requests();
        assertTrue(corpus.size() >= 300, "corpus of " + corpus.size());
        QueueSnapshot before = QueueSnapshot.settled(redis, keys);

        Map<Integer, Integer> statuses = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (BadRequest request : corpus) {
            try {
                Problems.Reply reply = Problems.Reply.of(request.send());
                statuses.merge(reply.status(), 1, Integer::sum);
                assertTrue(reply.status() >= 400 && reply.status() < 500, "status " + reply.status());
                Problems.check(reply);
                for (String path : request.absentAfter()) {
                    assertEquals(404, BadRequest.get(path).send().statusCode(), path + " was created");
                }
            } catch (AssertionError e) {
                failures.add(request.describe() + "\n    -> " + e.getMessage());
            }
        }

        System.out.printf("hostile input: %d requests, statuses %s, %d failed checks%n", corpus.size(), statuses,
                failures.size());
        assertTrue(failures.isEmpty(), failures.size() + " requests were not refused properly:\n"
                + String.join("\n", failures.subList(0, Math.min(30, failures.size()))));
        assertEquals(before, QueueSnapshot.take(redis, keys), "nothing may be enqueued");
        assertValidPaymentStillSucceeds();
    }

    /** An entry that parses as an envelope but cannot run; the task must fail with {@code error} in its lastError. */
    private record Invalid(String id, String envelope, String error) {

        Invalid(String id, String type, String payload, String error) {
            this(id, "{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"payload\":" + payload
                    + ",\"attempt\":0,\"enqueuedAt\":1}", error);
        }
    }

    @Test
    void garbageOnThePendingListIsDeadLetteredOrFailedAndTheWorkerGoesOn() {
        String marker = uniqueId("garbage");
        List<String> unparseable = List.of(
                "not json at all " + marker,
                "[\"" + marker + "\"]",
                // no id, or a null one: nothing to deduplicate on and nothing to retry by, whatever require-id says
                "{\"type\":\"payment\",\"payload\":{},\"note\":\"" + marker + "\"}",
                "{\"id\":null,\"type\":\"payment\",\"payload\":{},\"note\":\"" + marker + "\"}",
                "{\"id\":\"has spaces " + marker + "\",\"type\":\"payment\",\"payload\":{}}",
                "{\"id\":42,\"type\":\"payment\",\"note\":\"" + marker + "\"}",
                "{\"id\":\"" + marker + "-no-type\",\"payload\":{}}",
                "{\"id\":\"" + marker + "-deep\",\"type\":\"payment\",\"payload\":" + HostileCorpus.DEEP_ARRAY + "}");
        List<Invalid> invalid = List.of(
                new Invalid(marker + "-unknown-type", "refund", "{}", "no handler for task type 'refund'"),
                new Invalid(marker + "-bad-payload", "payment",
                        "{\"accountId\":\"acc\",\"amount\":\"-5\",\"currency\":\"EUR\",\"reference\":\"r\"}",
                        "payload.amount"),
                new Invalid(marker + "-payload-string", "payment", "\"x\"", "invalid payload"),
                new Invalid(marker + "-payload-null", "payment", "null", "invalid payload"),
                new Invalid(marker + "-bad-attempt", "{\"id\":\"" + marker + "-bad-attempt\",\"type\":\"payment\","
                        + "\"payload\":{},\"attempt\":\"abc\",\"enqueuedAt\":1}", "malformed envelope"),
                // Lua's JSON parser takes these, Jackson does not: they must still end, not hang in "running"
                new Invalid(marker + "-huge-number", "payment", "{\"amount\":1e2147483648}", "malformed envelope"),
                new Invalid(marker + "-nested-40", "payment", "[".repeat(40) + "]".repeat(40), "malformed envelope"));

        Request push = Request.cmd(Command.LPUSH).arg(keys.pending(whole(QUEUE)));
        unparseable.forEach(push::arg);
        invalid.forEach(entry -> push.arg(entry.envelope()));
        redis.send(push);

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                assertTrue(deadLetteredEnvelopes().containsAll(unparseable), "every unparseable entry is dead-lettered"));
        for (Invalid entry : invalid) {
            String lastError = awaitStatus(entry.id(), "failed").getString("lastError");
            assertTrue(lastError != null && lastError.contains(entry.error()), entry.id() + " failed with: " + lastError);
        }
        assertValidPaymentStillSucceeds();
    }

    /** The service is alive and the workers go on: a good payment is accepted and runs. */
    private static void assertValidPaymentStillSucceeds() {
        given().get("/api/queues").then().statusCode(200);
        String account = openAccount("EUR", "100.00");
        String id = uniqueId("after-hostile");
        assertEquals(202, post(task(id, "payment", payment(account, "12.50"))));
        awaitStatus(id, "succeeded");
    }

    /** The raw entries kept in the dead-letter records of the queue. */
    private Set<String> deadLetteredEnvelopes() throws Exception {
        Set<String> envelopes = new HashSet<>();
        for (var record : redis.send(Request.cmd(Command.LRANGE).arg(keys.dead(whole(QUEUE))).arg(0).arg(-1))) {
            JsonNode envelope = mapper.readTree(record.toString()).get("envelope");
            if (envelope != null) {
                envelopes.add(envelope.asText());
            }
        }
        return envelopes;
    }
}
