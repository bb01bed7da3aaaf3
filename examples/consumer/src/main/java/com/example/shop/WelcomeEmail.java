package com.example.shop;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** The payload of a welcome-email task; dedupq validates it before the handler sees it. */
@RegisterForReflection
public record WelcomeEmail(@NotBlank @Email String to, @NotBlank @Size(max = 80) String name) {
}
