package io.dedupq.lock;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.RedisKeys;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Lets a Quarkus {@code @Scheduled} method run on exactly one pod per fire time:
 * <pre>
 * &#64;Scheduled(identity = "nightly-sweep", cron = "0 0 3 * * ?", skipExecutionIf = OncePerTick.class)
 * </pre>
 * Every pod asks for the lock {@code <prefix>:joblock:<job identity>@<fire time>}; the first
 * one runs the tick, the others skip it. The lock is never released, it expires after
 * {@code dedupq.jobs.tick-lock-ttl}, so a pod that gets to the same fire time late cannot run
 * it a second time. Use cron schedules: their fire times are the same instants on every pod,
 * whereas {@code every} counts from each pod's start. Redis unreachable means skip: a tick is
 * run at most once, never twice.
 */
@Singleton
public class OncePerTick implements Scheduled.SkipPredicate {

    private static final Logger LOG = Logger.getLogger(OncePerTick.class);

    private final DistributedLock lock;
    private final RedisKeys keys;
    private final DedupqConfig config;

    public OncePerTick(DistributedLock lock, RedisKeys keys, DedupqConfig config) {
        this.lock = lock;
        this.keys = keys;
        this.config = config;
    }

    /** True (skip) unless this call took the fire time's lock. */
    @Override
    public boolean test(ScheduledExecution execution) {
        String key = keys.jobLock(execution.getTrigger().getId() + "@" + execution.getScheduledFireTime().getEpochSecond());
        try {
            return lock.acquire(key, config.jobs().tickLockTtl()).isEmpty();
        } catch (RuntimeException e) {
            LOG.warnf("job %s skips the tick of %s: %s", execution.getTrigger().getId(),
                    execution.getScheduledFireTime(), e.getMessage());
            return true;
        }
    }
}
