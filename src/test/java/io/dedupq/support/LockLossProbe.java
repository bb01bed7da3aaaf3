package io.dedupq.support;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.StaleExecution;
import io.dedupq.handler.TaskHandler;
import io.dedupq.tasks.payment.Ledger;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test-only payment (type "lock-probe", a 3 s lock TTL in the test profile) that holds its
 * task for {@code holdMillis} before it debits the ledger, like a handler stuck in a slow
 * call. It records whether it was interrupted, what {@code ctx.lockLost()} said then, and what
 * the fenced ledger answered to its debit.
 */
@ApplicationScoped
public class LockLossProbe implements TaskHandler<LockLossProbe.Payload> {

    public static final String TYPE = "lock-probe";

    /** {@code amount} in whole euros. */
    @RegisterForReflection
    public record Payload(@NotNull String accountId, @NotNull @Min(1) Integer amount, @NotNull @Min(0) Integer holdMillis) {
    }

    /** What one execution saw. */
    public record Run(ExecutionContext ctx, boolean interrupted, boolean lockLostWhenInterrupted, Ledger.Debit debit) {
    }

    private final Ledger ledger;
    private final Map<String, ExecutionContext> started = new ConcurrentHashMap<>();
    private final Map<String, Run> finished = new ConcurrentHashMap<>();

    public LockLossProbe(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Class<Payload> payloadType() {
        return Payload.class;
    }

    @Override
    public Object handle(Payload payload, ExecutionContext ctx) {
        started.put(ctx.taskId(), ctx);
        boolean interrupted = false;
        boolean lost = false;
        try {
            Thread.sleep(payload.holdMillis());
        } catch (InterruptedException e) {
            interrupted = true;
            lost = ctx.lockLost();
        }
        Ledger.Debit debit = ledger.debit(payload.accountId(), ctx.taskId(), BigDecimal.valueOf(payload.amount()), "EUR",
                ctx.fencingToken());
        finished.put(ctx.taskId(), new Run(ctx, interrupted, lost, debit));
        if (debit == Ledger.Debit.STALE) {
            throw new StaleExecution("a newer execution of " + ctx.taskId() + " already debited");
        }
        return Map.of("debit", debit.name());
    }

    public ExecutionContext started(String id) {
        return started.get(id);
    }

    public Run finished(String id) {
        return finished.get(id);
    }
}
