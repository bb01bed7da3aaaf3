package io.dedupq.handler;

/**
 * What a handler knows about the execution it runs in.
 *
 * @param taskId       the task id, the idempotency key toward other systems
 * @param queue        the queue the task came from
 * @param attempt      0 for the first execution, 1 for the first retry, ...
 * @param fencingToken grows with every lock acquisition of the queue; a resource that remembers
 *                     the largest token it has seen per task can refuse a late write from an
 *                     execution whose lock expired
 */
public record ExecutionContext(String taskId, String queue, int attempt, long fencingToken) {
}
