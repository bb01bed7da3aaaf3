package com.example.shop;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;

/** The payload of a charge task: take {@code amountCents} for the order. */
@RegisterForReflection
public record Charge(@NotBlank String orderId, @Positive int amountCents) {
}
