package io.dedupq.tasks.payment;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.dedupq.queue.TaskIds;
import io.dedupq.tasks.MoneyAmount;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;

/** Debit {@code amount} of {@code currency} from account {@code accountId}. */
@RegisterForReflection
public record PaymentPayload(
        @NotNull @Pattern(regexp = TaskIds.PATTERN, message = TaskIds.RULE) String accountId,
        @NotNull @JsonDeserialize(using = MoneyAmount.Deserializer.class)
        @DecimalMin(value = "0", inclusive = false, message = "must be greater than 0")
        @DecimalMax(value = "1000000000", message = "must be at most 1000000000")
        @Digits(integer = 10, fraction = 2, message = "must have at most 2 decimals") BigDecimal amount,
        @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be 3 upper-case letters (ISO 4217)") String currency,
        @NotNull @Size(max = 256) String reference) {
}
