package io.dedupq.tasks.voucher;

import io.dedupq.queue.TaskIds;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** Issue one voucher of campaign {@code campaignId} to customer {@code customerId}. */
@RegisterForReflection
public record VoucherPayload(
        @NotNull @Pattern(regexp = TaskIds.PATTERN, message = TaskIds.RULE) String campaignId,
        @NotNull @Pattern(regexp = TaskIds.PATTERN, message = TaskIds.RULE) String customerId) {
}
