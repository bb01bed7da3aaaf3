package com.example.shop;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.dedupq.sql.FencedWrites;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.util.Map;

/**
 * Task type {@code charge}: charges the bank and writes the charge row through
 * {@link FencedWrites}, so the row commits once per task, even when a worker dies after the
 * commit or a paused execution wakes after another one took the task over. No fencing SQL here.
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
    public Object handle(Charge charge, ExecutionContext ctx) throws Exception {
        return fenced.run(ctx, connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO charges (order_id, amount_cents, fencing_token) VALUES (?, ?, ?)")) {
                insert.setString(1, charge.orderId());
                insert.setInt(2, charge.amountCents());
                insert.setLong(3, ctx.fencingToken());
                insert.executeUpdate();
            }
            // the bank answers before the row commits: a bank that refuses (throws) leaves no row
            String reference = bank.charge(ctx.taskId(), charge.amountCents());
            return Map.of("bankReference", reference);
        });
    }
}
