package io.dedupq.queue;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** A slice of a queue's dead list, newest first; {@code total} is the list's length. */
@RegisterForReflection
public record DeadPage(String queue, long total, int offset, int limit, List<DeadLetter> entries) {
}
