package io.dedupq.queue;

import static io.dedupq.support.Api.account;
import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.openAccount;
import static io.dedupq.support.Api.payment;
import static io.dedupq.support.Api.submitUntilAnswered;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.Concurrently;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A thousand producers racing with the same payment id (retrying 503s with it): accepted at most once, charged once. */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class ConcurrentSameIdSubmissionTest {

    private static final int SUBMISSIONS = 1000;
    private static final int THREADS = 32;

    @Test
    void thousandConcurrentSubmissionsOfOnePaymentAreAcceptedOnceAndChargedOnce() {
        String accountId = openAccount("EUR", "100.00");
        String id = uniqueId("pay");
        Map<String, Object> task = task(id, "payment", payment(accountId, "12.34"));

        // "202" or "200 duplicate"; anything else (409, 200 without the flag, a 503 that outlasted
        // the retries) shows up as itself. A 202 lost to a timeout reads as a duplicate on the retry.
        List<String> answers = Concurrently.run(THREADS, SUBMISSIONS, i -> submitUntilAnswered(task));

        Map<String, Long> counts = answers.stream()
                .collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
        assertTrue(Set.of("202", "200 duplicate").containsAll(counts.keySet()), "answers: " + counts);
        assertTrue(counts.getOrDefault("202", 0L) <= 1, "accepted at most once: " + counts);

        awaitStatus(id, "succeeded");
        JsonPath account = account(accountId);
        List<String> entriesOfTask = account.getList("ledger.findAll { it.taskId == '" + id + "' }.taskId");
        assertEquals(1, entriesOfTask.size(), "one ledger entry for the task: " + account.prettify());
        assertEquals(1, account.getList("ledger").size(), "and nothing else was debited");
        assertEquals(0, new BigDecimal("87.66").compareTo(account.get("balance")),
                "the balance dropped exactly once: " + account.prettify());
    }
}
