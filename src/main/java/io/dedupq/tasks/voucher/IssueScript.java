package io.dedupq.tasks.voucher;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.redis.client.Response;
import java.util.List;

/**
 * issue.lua's arguments and reply, the only place that knows their positions and codes: callers
 * build a {@link Call} and read a {@link Reply} by name.
 */
public final class IssueScript {

    private IssueScript() {
    }

    /**
     * Hands out one code of the campaign's stock once for task {@code taskId}, fenced by {@code fencingToken}.
     *
     * @param candidateCode a random code made by the caller; issued unless another voucher has it
     */
    public record Call(String campaignId, String taskId, String customerId, String candidateCode, long fencingToken) {

        public ScriptCall script(RedisKeys keys) {
            return new ScriptCall(LuaScript.ISSUE,
                    List.of(keys.campaign(campaignId), keys.campaignVouchers(campaignId), keys.campaignIssued(campaignId),
                            keys.campaignCodes(campaignId)),
                    List.of(taskId, customerId, candidateCode, Long.toString(fencingToken)));
        }
    }

    /** What came of the call. */
    public enum Answer {
        ISSUED, ALREADY_ISSUED, STALE, NO_CAMPAIGN, OUT_OF_STOCK,
        /** The candidate code belongs to another voucher already: draw another. */
        CODE_TAKEN
    }

    /** @param code the code issued, "" otherwise */
    public record Reply(Answer answer, String code) {

        public static Reply read(Response reply) {
            int code = reply.get(0).toInteger();
            Answer answer = switch (code) {
                case 1 -> Answer.ISSUED;
                case 2 -> Answer.ALREADY_ISSUED;
                case -1 -> Answer.STALE;
                case -2 -> Answer.NO_CAMPAIGN;
                case -5 -> Answer.OUT_OF_STOCK;
                case -6 -> Answer.CODE_TAKEN;
                default -> throw new IllegalStateException("issue.lua answered " + code);
            };
            return new Reply(answer, reply.get(1).toString());
        }
    }
}
