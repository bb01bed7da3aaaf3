package io.dedupq.config;

import io.dedupq.queue.RateLimit;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithConverter;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithDefaults;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Everything dedupq reads from configuration; README.md has the same table for operators. */
@ConfigMapping(prefix = "dedupq")
public interface DedupqConfig {

    /** First part of every Redis key; the queue keys become {@code {<prefix>:<queue>}:...}. */
    @WithDefault("dedupq")
    String keyPrefix();

    Api api();

    Worker worker();

    Metrics metrics();

    Security security();

    /** Per-queue settings; a queue that is routed to but not listed gets the defaults. */
    @WithDefaults
    Map<String, QueueConfig> queues();

    /** Task type to queue name; a type that is not listed goes to the queue named after it. */
    Map<String, String> routes();

    Jobs jobs();

    RedisGuardConfig redisGuard();

    Redis redis();

    Durability durability();

    Examples examples();

    DevRedis devRedis();

    Sql sql();

    /**
     * Fenced SQL writes and the transactional outbox (docs/sql-effects.md), on the application's
     * default JDBC datasource. Needs quarkus-agroal and a JDBC driver, which dedupq does not bring.
     */
    interface Sql {
        /**
         * Create the beans (FencedWrites, TransactionalTaskQueue, the outbox relay). Read when the
         * application is built, so set it in {@code application.properties}.
         */
        @WithDefault("false")
        boolean enabled();

        /** How often the relay looks for committed outbox rows: the lag at rest is about this long. */
        @WithDefault("50ms")
        Duration outboxPollInterval();

        /** Most outbox rows moved to Redis in one enqueue pipeline. */
        @WithDefault("500")
        int outboxBatchSize();

        /** TTL of the relay's lock; the pod holding it extends it on every poll, another takes over after it expires. */
        @WithDefault("10s")
        Duration relayLockTtl();
    }

    /** The private redis-server of dev and test mode ({@link DevRedisConfigSourceFactory}). */
    interface DevRedis {
        /**
         * In dev and test, start a private redis-server when no Redis address is configured
         * (quarkus.redis.hosts or REDIS_URL). Off for test suites that bring their own Redis, or
         * an application that prefers Quarkus's Dev Services for Redis.
         */
        @WithDefault("true")
        boolean enabled();
    }

    Dashboard dashboard();

    Tracing tracing();

    /**
     * dedupq's OpenTelemetry spans (enqueue, wait, handle) and the trace context in the envelope
     * (docs/operations.md, "Tracing"). They follow the application's OpenTelemetry SDK, which dedupq
     * leaves off until an exporter endpoint is configured ({@link OtelDefaultsConfigSourceFactory}).
     */
    interface Tracing {
        /**
         * Trace tasks while the OpenTelemetry SDK is on; {@code false} keeps dedupq's spans and the
         * envelope's trace fields out of an application that traces its own work.
         */
        @WithDefault("true")
        boolean enabled();
    }

    /**
     * The service's example task types, payment and voucher: their handlers, their queues and
     * their endpoints ({@code /api/accounts}, {@code /api/campaigns}). Read when the application
     * is built (the beans exist or not), so set it in {@code application.properties}.
     */
    interface Examples {
        /** Off in the framework jar; the dedupq service in this repository turns it on. */
        @WithDefault("false")
        boolean enabled();
    }

    interface Dashboard {
        /** Serve the dashboard under {@code /dashboard/}; its data calls use the /api endpoints (operator role). */
        @WithDefault("true")
        boolean enabled();

        /** Also redirect {@code /} to the dashboard: for an application whose root is dedupq's (the service). */
        @WithDefault("false")
        boolean rootRedirect();
    }

    interface Api {
        /** Serve the /api endpoints on this pod (an API pod, or both). Probes are served anyway. */
        @WithDefault("true")
        boolean enabled();

        /** Largest body accepted by POST /api/tasks, in bytes; larger gets 413. */
        @WithDefault("65536")
        int maxBodyBytes();

        /** Largest body accepted by POST /api/tasks/batch, in bytes. */
        @WithDefault("4194304")
        int maxBatchBodyBytes();

        /** Most tasks in one POST /api/tasks/batch. */
        @WithDefault("1000")
        int maxBatchSize();

        /** Retry-After seconds sent with 503 while Redis is unreachable, and with 507 while it is out of memory. */
        @WithDefault("2")
        int retryAfterSeconds();
    }

    interface Worker {
        /** Run workers on this pod (a worker pod, or both): one owner per queue partition. */
        @WithDefault("true")
        boolean enabled();

        /** First part of the worker id (e.g. the pod name; default the host name); "-pid-random" is always added. */
        Optional<String> id();

        /** How often this worker writes its heartbeat to {@code <prefix>:workers}. */
        @WithDefault("5s")
        Duration heartbeatInterval();

        /** A worker whose heartbeat is older than this is dead: its copies go back to pending. */
        @WithDefault("30s")
        Duration heartbeatExpiry();

        /** How often the reaper looks for dead workers (one pod at a time, under a lock). */
        @WithDefault("5s")
        Duration reaperInterval();

        /** How often due retries are moved from delayed to pending. */
        @WithDefault("1s")
        Duration promoteInterval();

        /** BLMOVE wait when pending is empty; short so that shutdown is prompt. */
        @WithDefault("1s")
        Duration blockTimeout();

        /** On shutdown, how long running handlers may finish before their copies are requeued. */
        @WithDefault("25s")
        Duration shutdownGrace();

        /**
         * A queue partition whose handler slots have all been held this long (no free slot, no
         * claim: handlers that do not return) turns liveness DOWN. Keep it above the longest run
         * of a handler, and well above block-timeout plus 5 s.
         */
        @WithDefault("10m")
        Duration livenessTimeout();
    }

    interface Jobs {
        /**
         * How long the lock of one fire time of a once-per-tick job is kept. It is never released
         * early: a pod that reaches the same fire time later (slow, paused) finds it taken. Only a
         * pod later than this would run the tick again.
         */
        @WithDefault("1h")
        Duration tickLockTtl();

        /** Quartz cron (seconds first) of the stats roll-up, run on one pod per fire time; "off" disables it. */
        @WithDefault("0 * * * * ?")
        String rollupCron();

        /** Roll-ups kept in {@code <prefix>:rollups}, newest first (1440: a day of minutes). */
        @WithDefault("1440")
        int rollupKeep();
    }

    /**
     * The one fault-tolerance policy of the Redis calls outside the worker loop (the HTTP path,
     * the dashboard, the gauges): every such call is cut off after {@code timeout}, and one
     * circuit breaker, shared by all of them, stops calling a Redis that keeps failing.
     */
    interface RedisGuardConfig {
        /** Longest a guarded call may take: a paused Redis never answers, and the API answers 503 after this. */
        @WithDefault("800ms")
        Duration timeout();

        /** Calls the breaker's rolling window holds; it opens when failure-ratio of them failed. */
        @WithDefault("4")
        int requestVolume();

        /** Share of failed calls (Redis errors and timeouts only; not a refused connection) in the window that opens the breaker. */
        @WithDefault("0.5")
        double failureRatio();

        /** How long an open breaker refuses calls before it lets one through to try Redis again. */
        @WithDefault("2s")
        Duration delay();
    }

    /** What dedupq checks about the Redis it runs on ({@code io.dedupq.health.RedisMemory}). */
    interface Redis {
        /**
         * Run on a Redis whose {@code maxmemory-policy} is not {@code noeviction}. Off by default,
         * because eviction breaks the guarantees: a {@code volatile-*} policy evicts locks, done
         * markers and finished task hashes (they have a TTL), so duplicates run again; an
         * {@code allkeys-*} policy evicts pending and processing lists too, so tasks are lost.
         * While off, such a Redis turns readiness DOWN and workers do not claim.
         */
        @WithDefault("false")
        boolean allowEviction();

        /** How often the eviction policy and memory use of Redis are read (also once at start). */
        @WithDefault("10s")
        Duration checkInterval();
    }

    /** How many copies of an accepted task exist before the API answers 202. */
    interface Durability {
        /**
         * Replicas that must acknowledge an enqueue (Redis {@code WAIT}) before it answers 202;
         * 0 answers once the master has it. With fewer acknowledgements within
         * {@code replica-timeout} the answer is 503, outcome unknown: the task is on the master
         * and runs unless a failover loses it, and a retry with the same id is safe either way.
         * Workers wait for them too: each claim.lua call (outcomes and claims) counts only once
         * acknowledged; its outcomes go again until then, and its claims do not start.
         */
        @WithDefault("0")
        int replicas();

        /**
         * Longest wait for the replicas' acknowledgement (of an enqueue, or of a worker's call);
         * must be shorter than {@code dedupq.redis-guard.timeout}, which cuts off the whole enqueue call.
         */
        @WithDefault("300ms")
        Duration replicaTimeout();
    }

    interface Security {
        /**
         * Require an API key (X-API-Key) on dedupq's own endpoints (the task API, queues, dead
         * letters, workers; the dashboard's data). Unset: on in the prod profile, off in dev and
         * test. On with no key configured, an API pod refuses to start. An application's own
         * endpoints are never touched by it.
         */
        Optional<Boolean> enabled();

        /** API keys by name (the name is the caller's principal). */
        Map<String, ApiKey> keys();

        interface ApiKey {
            /** The key itself, at least 16 characters; from env or a mounted secret, never from a committed file. */
            String secret();

            /**
             * A second secret of the same key, valid as long as it is set: for rotation without
             * downtime. Put the new secret in {@code secret} and the old one here, move the
             * clients to the new one, then remove this. Same rules as {@code secret}.
             */
            Optional<String> previousSecret();

            /** producer (enqueue, task status) and/or operator (everything, including stats and dead letters). */
            List<String> roles();
        }
    }

    interface Metrics {
        /** How often the per-queue gauges (pending, processing, delayed, dead) are read from Redis. */
        @WithDefault("5s")
        Duration refreshInterval();
    }

    interface QueueConfig {
        /** Handlers of this queue running at once on one worker process. */
        @WithDefault("8")
        int concurrency();

        /**
         * Physical queues this queue is split into, so that one hot queue spreads over Redis Cluster
         * shards: 1 keeps the single queue {@code Q}; N > 1 makes {@code Q#0 .. Q#N-1}, a task going to
         * partition crc32(UTF-8 id) mod N. Drain the queue before changing it.
         */
        @WithDefault("1")
        int partitions();

        /** Most envelopes taken by one claim call under load. */
        @WithDefault("16")
        int batch();

        /** Lock TTL per task id while it runs. */
        @WithDefault("30s")
        Duration lockTtl();

        /** How long a finished task id is remembered: duplicates within it are skipped. */
        @WithDefault("24h")
        Duration dedupWindow();

        /** The default of {@link #dedupBuckets()}. */
        int DEFAULT_DEDUP_BUCKETS = 16384;

        /**
         * Keys per partition that share the dedup records of finished task ids (records.lua): an id's
         * record is a field of one of them, which Redis keeps compact while it holds at most 128 ids;
         * fewer ids a key cost Redis less time to look one up. Size it to about a sixteenth of the ids
         * a partition finishes in one dedup window. Fixed for a partition by the first pod that writes
         * its records: a later change has no effect there (docs/redis-keys.md, "Dedup records").
         */
        @WithDefault("" + DEFAULT_DEDUP_BUCKETS)
        int dedupBuckets();

        /**
         * How long a finished task's result and details (its hash: result, lastError, timestamps,
         * attempts) are kept. After it, only its outcome is remembered for the rest of the dedup
         * window, so a long window costs little memory per task. Cut to the dedup window where longer.
         */
        @WithDefault("1h")
        Duration resultRetention();

        /**
         * {@link #resultRetention()} cut to {@link #dedupWindow()}: a hash outliving its done marker
         * would let a resubmission see a finished task whose id is free again.
         */
        static Duration retention(QueueConfig queue) {
            return queue.resultRetention().compareTo(queue.dedupWindow()) > 0 ? queue.dedupWindow() : queue.resultRetention();
        }

        /**
         * Longest time one execution's handler may run; past it the handler is interrupted,
         * {@code ExecutionContext.timedOut()} turns true, and the attempt fails as retryable (backoff
         * and max-attempts apply). A task's own {@code timeout} takes precedence. None by default:
         * a handler runs as long as it takes, its lock extended meanwhile.
         */
        Optional<Duration> timeout();

        /** Executions before a retryable failure becomes dead. */
        @WithDefault("5")
        int maxAttempts();

        /** First retry delay; doubled per attempt, with jitter. */
        @WithDefault("1s")
        Duration backoffBase();

        /** Longest retry delay. */
        @WithDefault("5m")
        Duration backoffMax();

        /**
         * Refuse a task without an id (missing or null) instead of giving it a random UUID: with a
         * UUID, a producer that retries after a timeout enqueues a second task, so the retry runs too.
         */
        @WithDefault("false")
        boolean requireId();

        /**
         * At most N tasks of this queue start in any window of the duration, across all workers:
         * {@code N/duration}, e.g. {@code 100/1s} or {@code 5/1m}. Enforced in claim.lua on Redis's
         * clock with a sliding log; tasks over the limit wait in pending. Unset: no limit. Needs
         * {@code partitions} = 1 (a limit per partition would multiply it).
         */
        @WithConverter(RateLimitConverter.class)
        Optional<RateLimit> rateLimit();

        /**
         * How claims choose between the queue's priority levels: {@code strict} takes the highest
         * level that has tasks waiting; {@code weighted} gives each level that has tasks a share of
         * the claims proportional to its level + 1 (9 gets 10, 0 gets 1), so a low level keeps
         * moving while higher ones are busy. FIFO within a level either way.
         */
        @WithDefault("strict")
        PriorityOrder priorityOrder();

        /** {@link #priorityOrder()}'s values. */
        enum PriorityOrder {
            STRICT,
            WEIGHTED
        }

        /**
         * At most N tasks of one group (the envelope's {@code group}) run at once across all
         * workers; copies of a full group wait aside while other groups flow. 0: no limit. Needs
         * {@code partitions} = 1 (one group's tasks would spread over the partitions).
         */
        @WithDefault("0")
        int groupConcurrency();

        /**
         * At most N tasks of one group start in any window of the duration, across all workers:
         * {@code N/duration} like {@link #rateLimit()}. Enforced in claim.lua on Redis's clock with
         * a sliding log per group; copies over it wait aside (parked, like a full group's) while
         * other groups flow. Applies together with {@link #groupConcurrency()} and
         * {@link #rateLimit()}. Unset: no limit. Needs {@code partitions} = 1.
         */
        @WithConverter(RateLimitConverter.class)
        Optional<RateLimit> groupRateLimit();
    }
}
