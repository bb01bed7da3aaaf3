package io.dedupq.lock;

import io.dedupq.queue.KeyedCommand;
import io.dedupq.queue.RedisCalls;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * A lock on one Redis key with a TTL: taken with {@code SET key token NX PX ttl} (whose reply
 * says whether it was set), extended and released only by the token that took it. A lock held
 * elsewhere is an ordinary "not acquired", never an exception.
 */
@ApplicationScoped
public class DistributedLock {

    /** A held lock: the key and the token that proves ownership. */
    public record Lease(String key, String token) {
    }

    private final RedisCalls redis;

    public DistributedLock(RedisCalls redis) {
        this.redis = redis;
    }

    public Optional<Lease> acquire(String key, Duration ttl) {
        String token = UUID.randomUUID().toString();
        Response reply = redis.send(KeyedCommand.of(Command.SET, key).arg(token).arg("NX").arg("PX").arg(ttl.toMillis()));
        return reply == null ? Optional.empty() : Optional.of(new Lease(key, token));
    }

    /** True when the lease still held the lock and now has {@code ttl} left. */
    public boolean extend(Lease lease, Duration ttl) {
        return LockScripts.held(redis.script(new LockScripts.Extend(lease.key(), lease.token(), ttl.toMillis()).script()));
    }

    /** True when the lease still held the lock and it is now free; a stale lease changes nothing. */
    public boolean release(Lease lease) {
        return LockScripts.held(redis.script(new LockScripts.Release(lease.key(), lease.token()).script()));
    }

    /**
     * Runs {@code work} only if the lock could be taken, and releases it afterwards by token.
     * Returns whether {@code work} ran. {@code ttl} must exceed the work's duration: the lock is
     * not extended while it runs.
     */
    public boolean execute(String key, Duration ttl, Runnable work) {
        Optional<Lease> lease = acquire(key, ttl);
        if (lease.isEmpty()) {
            return false;
        }
        try {
            work.run();
        } finally {
            release(lease.get());
        }
        return true;
    }
}
