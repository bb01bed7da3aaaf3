package io.dedupq.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One record of a queue's dead list.
 *
 * @param id             null for an entry that was no task envelope at all (it cannot be retried)
 * @param status         {@code failed} (permanent failure, invalid payload), {@code dead} (attempts
 *                       used up) or {@code unparseable}
 * @param attempts       executions the task had when it was dead-lettered
 * @param deadLetteredAt epoch ms
 * @param envelope       the copy as it was taken from pending
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeadLetter(String id, String type, String status, int attempts, String lastError, Long deadLetteredAt,
        String envelope) {
}
