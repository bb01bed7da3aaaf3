package io.dedupq.queue;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** A page of a queue's tasks in one state; {@code total} is how many are in that state. */
@RegisterForReflection
public record TaskPage(String queue, String state, long total, int offset, int limit, List<ListedTask> tasks) {
}
