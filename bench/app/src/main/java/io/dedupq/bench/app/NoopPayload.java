package io.dedupq.bench.app;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;

/** Payload of the benchmark's no-op task: the workload's logical id, nothing else. */
@RegisterForReflection
public record NoopPayload(@NotNull Long lid) {
}
