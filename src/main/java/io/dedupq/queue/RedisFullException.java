package io.dedupq.queue;

/**
 * Redis answered, with {@code OOM}: it is at {@code maxmemory} under {@code noeviction} and refuses
 * commands that may grow it. Unlike a Redis that did not answer, the outcome is known: Redis
 * refuses a script at its first write when it starts out of memory, and never stops one that has
 * written (see {@code docs/operations.md}), so the refused script wrote nothing. A subclass of
 * {@link StoreUnavailableException} because every caller that retries later should retry this
 * too (the worker's outcomes wait for Redis to take them); the HTTP answer and the circuit
 * breaker tell them apart.
 */
public class RedisFullException extends StoreUnavailableException {

    public RedisFullException(Throwable cause) {
        super("Redis is out of memory and refused the write: ", cause);
    }
}
