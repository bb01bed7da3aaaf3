package com.example.shop;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.dedupq.sql.FencedWrites;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.Map;

/**
 * Task type {@code charge}: charges the bank and writes the charge (a Panache entity) in the
 * handler's {@code @Transactional}, joined by {@link FencedWrites#joinTransaction}, so the row
 * commits once per task, even when a worker dies after the commit or a paused execution wakes
 * after another one took the task over. No fencing SQL here.
 */
@ApplicationScoped
public class ChargeHandler implements TaskHandler<Charge> {

    private final FencedWrites fenced;
    private final Bank bank;

    public ChargeHandler(FencedWrites fenced, Bank bank) {
        this.fenced = fenced;
        this.bank = bank;
    }

    @Override
    public String type() {
        return "charge";
    }

    @Override
    public Class<Charge> payloadType() {
        return Charge.class;
    }

    @Override
    @Transactional
    public Object handle(Charge charge, ExecutionContext ctx) throws Exception {
        return fenced.joinTransaction(ctx, () -> {
            ChargeRecord row = new ChargeRecord();
            row.orderId = charge.orderId();
            row.amountCents = charge.amountCents();
            row.fencingToken = ctx.fencingToken();
            // flushed now, so the row is written before the bank answers (it commits at the end either way)
            row.persistAndFlush();
            // the bank answers before the row commits: a bank that refuses (throws) leaves no row
            String reference = bank.charge(ctx.taskId(), charge.amountCents());
            return Map.of("bankReference", reference);
        });
    }
}
