package io.dedupq.tasks.payment;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.ScriptCall;
import io.vertx.mutiny.redis.client.Response;
import java.util.List;

/** debit.lua's arguments and reply, the only place that knows their positions and codes. */
public final class DebitScript {

    private DebitScript() {
    }

    /**
     * Debits {@code amountMinorUnits} (more than 0) of {@code currency} from the account once for
     * task {@code taskId}, fenced by {@code fencingToken}.
     *
     * @param nowMillis written to the ledger entry
     */
    public record Call(String accountId, String taskId, long amountMinorUnits, String currency, long fencingToken,
            long nowMillis) {

        public ScriptCall script(RedisKeys keys) {
            return new ScriptCall(LuaScript.DEBIT,
                    List.of(keys.account(accountId), keys.accountLedger(accountId), keys.accountApplied(accountId)),
                    List.of(taskId, Long.toString(amountMinorUnits), currency, Long.toString(fencingToken),
                            Long.toString(nowMillis)));
        }
    }

    /** The reply, as what came of the debit. */
    public static Ledger.Debit read(Response reply) {
        int code = reply.toInteger();
        return switch (code) {
            case 1 -> Ledger.Debit.DEBITED;
            case 2 -> Ledger.Debit.ALREADY_DEBITED;
            case -1 -> Ledger.Debit.STALE;
            case -2 -> Ledger.Debit.NO_ACCOUNT;
            case -3 -> Ledger.Debit.CURRENCY_MISMATCH;
            case -4 -> Ledger.Debit.INSUFFICIENT_FUNDS;
            default -> throw new IllegalStateException("debit.lua answered " + code);
        };
    }
}
