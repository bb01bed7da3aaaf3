package io.dedupq.lua;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.ScriptLab;
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

    /** The reply as {code, text}. */
    private List<String> issue(String taskId, String code, long fence) {
        return ScriptLab.texts(lab.eval(LuaScript.ISSUE,
                List.of(keys.campaign(campaign), keys.campaignVouchers(campaign), keys.campaignIssued(campaign),
                        keys.campaignCodes(campaign)),
                List.of(taskId, "cust-1", code, Long.toString(fence))));
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

        assertEquals(List.of("1", "CODE-A"), issue(task, "CODE-A", 7));

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

        assertEquals(List.of("2", ""), issue(task, "CODE-B", 7), "the same execution again: already issued");
        assertEquals(List.of("2", ""), issue(task, "CODE-C", 9), "a newer execution of the task: already issued");
        assertEquals(4, stock(), "one code per task id");
        assertEquals(1, vouchers().size());
        assertEquals(0, lab.call("SISMEMBER", keys.campaignCodes(campaign), "CODE-B").toLong());
    }

    @Test
    void anOlderTokenThanTheOneThatIssuedIsRefusedAsStale() {
        open(5);
        issue(task, "CODE-A", 7);

        assertEquals(List.of("-1", ""), issue(task, "CODE-B", 6), "the fence: a write with an older token is stale");
        assertEquals(4, stock());
        assertEquals(1, vouchers().size());
    }

    @Test
    void theLastCodeIsIssuedAndThenTheStockIsOut() {
        open(1);

        assertEquals(List.of("1", "CODE-A"), issue(task, "CODE-A", 7), "the last one in stock is handed out");
        String next = uniqueId("vou");
        assertEquals(List.of("-5", ""), issue(next, "CODE-B", 8), "never more codes than the stock");
        assertEquals(0, stock());
        assertNull(lab.hget(keys.campaignIssued(campaign), next), "a refusal records no token");
        assertEquals(1, vouchers().size());
    }

    @Test
    void aCodeAlreadyHandedOutIsRefusedAndNothingIsTaken() {
        open(5);
        issue(task, "CODE-A", 7);
        String other = uniqueId("vou");

        assertEquals(List.of("-6", ""), issue(other, "CODE-A", 8), "no code is issued twice");
        assertEquals(4, stock(), "the stock is untouched");
        assertNull(lab.hget(keys.campaignIssued(campaign), other));
        assertEquals(1, vouchers().size());
    }

    @Test
    void noSuchCampaignWritesNothing() {
        assertEquals(List.of("-2", ""), issue(task, "CODE-A", 7));
        assertFalse(lab.exists(keys.campaign(campaign)), "no campaign is created");
        assertFalse(lab.exists(keys.campaignCodes(campaign)), "the code is not taken");
        assertTrue(vouchers().isEmpty());
    }
}
