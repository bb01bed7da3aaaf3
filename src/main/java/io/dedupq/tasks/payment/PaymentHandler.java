package io.dedupq.tasks.payment;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.PermanentFailure;
import io.dedupq.handler.StaleExecution;
import io.dedupq.handler.TaskHandler;
import io.dedupq.tasks.Examples;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Debits an account once per task id. The ledger itself refuses a second debit for the same
 * task and a write carrying an older fencing token, so even an execution that lost its lock
 * (paused past the TTL) cannot charge twice.
 */
@IfBuildProperty(name = Examples.ENABLED, stringValue = "true")
@ApplicationScoped
public class PaymentHandler implements TaskHandler<PaymentPayload> {

    private final Ledger ledger;

    public PaymentHandler(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    public String type() {
        return "payment";
    }

    @Override
    public Class<PaymentPayload> payloadType() {
        return PaymentPayload.class;
    }

    /** One payment per account at a time where the payment queue sets group-concurrency=1. */
    @Override
    public String group(PaymentPayload payment) {
        return payment.accountId();
    }

    @Override
    public Object handle(PaymentPayload payment, ExecutionContext ctx) {
        Ledger.Debit debit = ledger.debit(payment.accountId(), ctx.taskId(), payment.amount(), payment.currency(),
                ctx.fencingToken());
        return switch (debit) {
            case DEBITED -> Map.of("debited", payment.amount(), "accountId", payment.accountId());
            case ALREADY_DEBITED -> Map.of("debited", payment.amount(), "accountId", payment.accountId(),
                    "alreadyApplied", true);
            case STALE -> throw new StaleExecution("a newer execution of task " + ctx.taskId() + " already debited");
            case NO_ACCOUNT -> throw new PermanentFailure("account " + payment.accountId() + " does not exist");
            case CURRENCY_MISMATCH -> throw new PermanentFailure("account " + payment.accountId()
                    + " is not in " + payment.currency());
            case INSUFFICIENT_FUNDS -> throw new PermanentFailure("insufficient funds in account " + payment.accountId());
        };
    }
}
