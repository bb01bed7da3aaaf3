package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.tasks.voucher.IssueScript.Answer.ALREADY_ISSUED;
import static io.dedupq.tasks.voucher.IssueScript.Answer.CODE_TAKEN;
import static io.dedupq.tasks.voucher.IssueScript.Answer.ISSUED;
import static io.dedupq.tasks.voucher.IssueScript.Answer.NO_CAMPAIGN;
import static io.dedupq.tasks.voucher.IssueScript.Answer.OUT_OF_STOCK;
import static io.dedupq.tasks.voucher.IssueScript.Answer.STALE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.ScriptLab;
import io.dedupq.tasks.voucher.IssueScript;
import io.restassured.path.json.JsonPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * issue.lua: a campaign hands out at most one code per task id (the issued hash records which
 * token did it) and never more codes than its stock, never the same code twice; a later
 * execution of the task is told it is already issued, an older one that it is stale.
 */
class IssueContractTest {

    private final ScriptLab lab = ScriptLab.shared();
    private final RedisKeys keys = lab.keys();
    private final String campaign = uniqueId("camp");
    private final String task = uniqueId("vou");

    private IssueScript.Reply issue(String taskId, String code, long fence) {
        return IssueScript.Reply.read(lab.eval(new IssueScript.Call(campaign, taskId, "cust-1", code, fence).script(keys)));
    }

    private static IssueScript.Reply issued(String code) {
        return new IssueScript.Reply(ISSUED, code);
    }

    private static IssueScript.Reply refused(IssueScript.Answer answer) {
        return new IssueScript.Reply(answer, "");
    }

    private void open(long stock) {
        lab.call("HSET", keys.campaign(campaign), "stock", stock, "value", "500", "currency", "EUR");
    }

    private long stock() {
        return Long.parseLong(lab.hget(keys.campaign(campaign), "stock"));
    }

    private List<String> vouchers() {
        return lab.lrange(keys.campaignVouchers(campaign));
    }

    @Test
    void anIssueTakesOneFromStockAndRecordsCodeTokenAndVoucher() {
        open(2);

        assertEquals(issued("CODE-A"), issue(task, "CODE-A", 7));

        assertEquals(1, stock());
        assertEquals("7", lab.hget(keys.campaignIssued(campaign), task), "the issued hash names the token that issued");
        assertEquals(1, lab.call("SISMEMBER", keys.campaignCodes(campaign), "CODE-A").toLong(), "the code is taken");
        assertEquals(1, vouchers().size());
        JsonPath voucher = JsonPath.from(vouchers().get(0));
        assertEquals("CODE-A", voucher.getString("code"));
        assertEquals(task, voucher.getString("taskId"));
        assertEquals("cust-1", voucher.getString("customerId"));
    }

    @Test
    void theSameTaskNeverGetsASecondCodeWhateverItsToken() {
        open(5);
        issue(task, "CODE-A", 7);

        assertEquals(refused(ALREADY_ISSUED), issue(task, "CODE-B", 7), "the same execution again: already issued");
        assertEquals(refused(ALREADY_ISSUED), issue(task, "CODE-C", 9), "a newer execution of the task: already issued");
        assertEquals(4, stock(), "one code per task id");
        assertEquals(1, vouchers().size());
        assertEquals(0, lab.call("SISMEMBER", keys.campaignCodes(campaign), "CODE-B").toLong());
    }

    @Test
    void anOlderTokenThanTheOneThatIssuedIsRefusedAsStale() {
        open(5);
        issue(task, "CODE-A", 7);

        assertEquals(refused(STALE), issue(task, "CODE-B", 6), "the fence: a write with an older token is stale");
        assertEquals(4, stock());
        assertEquals(1, vouchers().size());
    }

    @Test
    void theLastCodeIsIssuedAndThenTheStockIsOut() {
        open(1);

        assertEquals(issued("CODE-A"), issue(task, "CODE-A", 7), "the last one in stock is handed out");
        String next = uniqueId("vou");
        assertEquals(refused(OUT_OF_STOCK), issue(next, "CODE-B", 8), "never more codes than the stock");
        assertEquals(0, stock());
        assertNull(lab.hget(keys.campaignIssued(campaign), next), "a refusal records no token");
        assertEquals(1, vouchers().size());
    }

    @Test
    void aCodeAlreadyHandedOutIsRefusedAndNothingIsTaken() {
        open(5);
        issue(task, "CODE-A", 7);
        String other = uniqueId("vou");

        assertEquals(refused(CODE_TAKEN), issue(other, "CODE-A", 8), "no code is issued twice");
        assertEquals(4, stock(), "the stock is untouched");
        assertNull(lab.hget(keys.campaignIssued(campaign), other));
        assertEquals(1, vouchers().size());
    }

    @Test
    void noSuchCampaignWritesNothing() {
        assertEquals(refused(NO_CAMPAIGN), issue(task, "CODE-A", 7));
        assertFalse(lab.exists(keys.campaign(campaign)), "no campaign is created");
        assertFalse(lab.exists(keys.campaignCodes(campaign)), "the code is not taken");
        assertTrue(vouchers().isEmpty());
    }
}
