package io.dedupq.queue;

import io.dedupq.config.DedupqConfig;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.faulttolerance.api.Guard;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * The one fault-tolerance policy of the Redis calls that must answer fast when Redis is down or
 * paused (HTTP path, dashboard, gauges): a method annotated {@code @ApplyGuard(RedisGuard.NAME)},
 * or a call through the {@link Guard} itself (the enqueue path, {@code QueueStore.enqueue}), is
 * cut off after {@code dedupq.redis-guard.timeout}, and one circuit breaker, shared by every
 * such method, stops sending calls to a Redis that keeps failing, so callers get a 503 instead
 * of a hang. Shared because Redis down is Redis down for every caller: once enqueues time out,
 * a stats read would only wait for the same timeout. Only Redis failures (and timeouts) count
 * toward opening it, never a bug or bad data; nor a full Redis ({@link RedisFullException}): it
 * answers at once, and still serves reads, which an open breaker would refuse; nor a master that
 * refuses writes for want of replicas ({@link TooFewReplicasException}), for the same reasons;
 * nor a write its replicas did not acknowledge ({@link NotReplicatedException}): the master answered, within
 * {@code dedupq.durability.replica-timeout}, and on a Cluster it is one master's replica that is
 * late, so an open breaker would refuse the queues of every other master too; nor a connection
 * the node refused ({@link ConnectionRefusedException}): nobody waited, and on a Cluster it is one
 * master that is down.
 * <p>
 * A guarded method must not call another guarded method: in half-open state the breaker lets
 * one call through, and the inner call would be refused.
 */
public class RedisGuard {

    /** The guard's {@code @Identifier}, for {@code @ApplyGuard}. */
    public static final String NAME = "redis";

    @Produces
    @Singleton
    @Identifier(NAME)
    static Guard guard(DedupqConfig config) {
        DedupqConfig.RedisGuardConfig policy = config.redisGuard();
        return Guard.create()
                .withDescription("Redis")
                .withTimeout().duration(policy.timeout().toMillis(), ChronoUnit.MILLIS).done()
                .withCircuitBreaker().name(NAME)
                .requestVolumeThreshold(policy.requestVolume())
                .failureRatio(policy.failureRatio())
                .delay(policy.delay().toMillis(), ChronoUnit.MILLIS)
                .failOn(List.of(StoreUnavailableException.class, TimeoutException.class))
                .skipOn(List.of(RedisFullException.class, TooFewReplicasException.class, NotReplicatedException.class,
                        ConnectionRefusedException.class))
                .done()
                .build();
    }
}
