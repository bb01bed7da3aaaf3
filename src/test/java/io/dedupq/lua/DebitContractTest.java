package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.tasks.payment.Ledger.Debit.ALREADY_DEBITED;
import static io.dedupq.tasks.payment.Ledger.Debit.CURRENCY_MISMATCH;
import static io.dedupq.tasks.payment.Ledger.Debit.DEBITED;
import static io.dedupq.tasks.payment.Ledger.Debit.INSUFFICIENT_FUNDS;
import static io.dedupq.tasks.payment.Ledger.Debit.NO_ACCOUNT;
import static io.dedupq.tasks.payment.Ledger.Debit.STALE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.ScriptLab;
import io.dedupq.tasks.payment.DebitScript;
import io.dedupq.tasks.payment.Ledger;
import io.restassured.path.json.JsonPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * debit.lua: an account is debited at most once per task id (the applied hash records which
 * token did it); a later execution of the task is told it is already applied, an older one that
 * it is stale; a refusal (no account, other currency, too little money) writes nothing.
 */
class DebitContractTest {

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final String account = uniqueId("acc");
    private final String task = uniqueId("pay");

    private Ledger.Debit debit(String taskId, long amount, String currency, long fence) {
        return DebitScript.read(lab.eval(new DebitScript.Call(account, taskId, amount, currency, fence, 1_700_000_000_000L)
                .script(keys)));
    }

    private void open(long balance) {
        lab.call("HSET", keys.account(account), "currency", "EUR", "balance", balance);
    }

    private long balance() {
        return Long.parseLong(lab.hget(keys.account(account), "balance"));
    }

    private List<String> ledger() {
        return lab.lrange(keys.accountLedger(account));
    }

    @Test
    void aDebitMovesTheMoneyOnceAndRecordsItsTokenAndLedgerEntry() {
        open(10_000);

        assertEquals(DEBITED, debit(task, 2_500, "EUR", 7));

        assertEquals(7_500, balance());
        assertEquals("7", lab.hget(keys.accountApplied(account), task), "the applied hash names the token that debited");
        assertEquals(1, ledger().size());
        JsonPath entry = JsonPath.from(ledger().get(0));
        assertEquals(task, entry.getString("taskId"));
        assertEquals(2_500, entry.getLong("amount"));
        assertEquals(7, entry.getLong("fencingToken"));
        assertEquals(1_700_000_000_000L, entry.getLong("at"));
    }

    @Test
    void theSameTaskIsNeverDebitedTwiceWhateverItsToken() {
        open(10_000);
        debit(task, 2_500, "EUR", 7);

        assertEquals(ALREADY_DEBITED, debit(task, 2_500, "EUR", 7), "the same execution again: already applied");
        assertEquals(ALREADY_DEBITED, debit(task, 2_500, "EUR", 9), "a newer execution of the task: already applied");
        assertEquals(7_500, balance(), "charged once");
        assertEquals(1, ledger().size(), "one ledger entry per task id");
        assertEquals("7", lab.hget(keys.accountApplied(account), task), "the record keeps the token that debited");
    }

    @Test
    void anOlderTokenThanTheOneThatDebitedIsRefusedAsStale() {
        open(10_000);
        debit(task, 2_500, "EUR", 7);

        assertEquals(STALE, debit(task, 2_500, "EUR", 6), "the fence: a write with an older token is stale");
        assertEquals(7_500, balance());
        assertEquals(1, ledger().size());
    }

    @Test
    void otherTasksAreDebitedOnTheirOwn() {
        open(10_000);
        debit(task, 2_500, "EUR", 7);

        assertEquals(DEBITED, debit(uniqueId("pay"), 1_000, "EUR", 3), "the record is per task id, the fence too");
        assertEquals(6_500, balance());
        assertEquals(2, ledger().size());
    }

    @Test
    void noSuchAccountWritesNothing() {
        assertEquals(NO_ACCOUNT, debit(task, 100, "EUR", 7));
        assertFalse(lab.exists(keys.account(account)), "no account is created");
        assertFalse(lab.exists(keys.accountApplied(account)));
        assertTrue(ledger().isEmpty());
    }

    @Test
    void anotherCurrencyWritesNothing() {
        open(10_000);

        assertEquals(CURRENCY_MISMATCH, debit(task, 100, "USD", 7));
        assertEquals(10_000, balance());
        assertFalse(lab.exists(keys.accountApplied(account)));
        assertTrue(ledger().isEmpty());
    }

    @Test
    void tooLittleMoneyWritesNothingAndTheWholeBalanceCanBeSpent() {
        open(1_000);

        assertEquals(INSUFFICIENT_FUNDS, debit(task, 1_001, "EUR", 7), "one cent more than the balance is refused");
        assertEquals(1_000, balance());
        assertFalse(lab.exists(keys.accountApplied(account)), "a refused debit records no token");
        assertTrue(ledger().isEmpty());

        assertEquals(DEBITED, debit(uniqueId("pay"), 1_000, "EUR", 8), "exactly the balance is allowed");
        assertEquals(0, balance());
    }
}
