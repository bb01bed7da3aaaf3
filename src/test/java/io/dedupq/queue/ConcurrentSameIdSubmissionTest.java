package io.dedupq.queue;

import static io.dedupq.support.Api.account;
import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.openAccount;
import static io.dedupq.support.Api.payment;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.support.Concurrently;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A thousand producers racing with the same payment id: one is accepted, the account is charged once. */
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

        // "202" or "200 duplicate=true"; anything else (503, 409, 200 without the flag) shows up as itself
        List<String> answers = Concurrently.run(THREADS, SUBMISSIONS, i -> describe(submit(task)));

        Map<String, Long> counts = answers.stream()
                .collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
        assertEquals(Map.of("202", 1L, "200 duplicate", (long) SUBMISSIONS - 1), counts);

        awaitStatus(id, "succeeded");
        JsonPath account = account(accountId);
        List<String> entriesOfTask = account.getList("ledger.findAll { it.taskId == '" + id + "' }.taskId");
        assertEquals(1, entriesOfTask.size(), "one ledger entry for the task: " + account.prettify());
        assertEquals(1, account.getList("ledger").size(), "and nothing else was debited");
        assertEquals(0, new BigDecimal("87.66").compareTo(account.get("balance")),
                "the balance dropped exactly once: " + account.prettify());
    }

    private static String describe(Response response) {
        int status = response.statusCode();
        if (status == 200 && Boolean.TRUE.equals(response.jsonPath().get("duplicate"))) {
            return "200 duplicate";
        }
        return Integer.toString(status);
    }
}
