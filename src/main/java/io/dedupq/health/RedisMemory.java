package io.dedupq.health;

import io.dedupq.config.DedupqConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * Reads, at start and every {@code dedupq.redis.check-interval}, the eviction policy and memory
 * use of Redis, and says whether workers may claim. Any {@code maxmemory-policy} but
 * {@code noeviction} breaks the guarantees (see {@link #harm}), so unless
 * {@code dedupq.redis.allow-eviction} accepts that, readiness is DOWN and workers do not claim.
 * <p>
 * The policy comes from {@code CONFIG GET}, or from {@code INFO memory} where CONFIG is renamed
 * or refused (managed services do that); the memory figures always from {@code INFO memory}. On
 * Redis Cluster every master is read: an evicting policy on any of them counts, and the figures
 * are those of the master nearest to full.
 */
@ApplicationScoped
public class RedisMemory {

    private static final Logger LOG = Logger.getLogger(RedisMemory.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    public static final String SAFE_POLICY = "noeviction";

    /**
     * One reading: the policy, where it was read ({@code CONFIG GET} or {@code INFO}), and
     * {@code used_memory} and {@code maxmemory} in bytes (0: no limit), of the node it names.
     */
    public record State(String policy, String source, long usedMemory, long maxMemory, String node) {

        public boolean evicting() {
            return !SAFE_POLICY.equals(policy);
        }

        /** Used over max, 0 without a limit. */
        double fill() {
            return maxMemory <= 0 ? 0 : (double) usedMemory / maxMemory;
        }
    }

    private final Redis redis;
    private final ClusterNodes cluster;
    private final DedupqConfig config;
    private volatile State latest;
    /** The policy last logged about, so that one change is logged once, not at every check. */
    private volatile String logged;

    public RedisMemory(Redis redis, ClusterNodes cluster, DedupqConfig config) {
        this.redis = redis;
        this.cluster = cluster;
        this.config = config;
    }

    /** Before the workers start (their observer has the default priority), so their first claim knows the policy. */
    void onStart(@Observes @Priority(Interceptor.Priority.APPLICATION - 10) StartupEvent event) {
        try {
            check();
        } catch (RuntimeException e) {
            LOG.debugf("Redis memory policy not read at start (%s); workers read it before their first claim",
                    e.getMessage());
        }
    }

    @Scheduled(every = "${dedupq.redis.check-interval}", delayed = "${dedupq.redis.check-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void periodically() {
        try {
            check();
        } catch (RuntimeException e) {
            // Redis down is readiness's and the callers' business; the last reading stands
            LOG.debugf("Redis memory policy not read: %s", e.getMessage());
        }
    }

    /** Reads Redis now; fails when it does not answer. */
    public State check() {
        State state = cluster.cluster() ? readMasters() : read(redis, "").await().atMost(TIMEOUT);
        latest = state;
        report(state);
        return state;
    }

    /** The last reading, null before the first one succeeded. */
    public State latest() {
        return latest;
    }

    /** True when the last reading found an evicting policy that {@code dedupq.redis.allow-eviction} does not accept. */
    public boolean unsafe() {
        State state = latest;
        return state != null && state.evicting() && !config.redis().allowEviction();
    }

    /**
     * For a worker about to claim: false while Redis evicts (see {@link #unsafe}). Before any
     * reading succeeded it reads Redis first, failing as a Redis call does when Redis is down.
     */
    public boolean claimsAllowed() {
        if (latest == null) {
            check();
        }
        return !unsafe();
    }

    /** What {@code policy} breaks, in a sentence. */
    public static String harm(String policy) {
        if (policy.startsWith("volatile-")) {
            return "it evicts keys with a TTL first, and dedupq's locks, done markers and finished task hashes are "
                    + "such keys: once they are evicted, duplicates of running or finished tasks run again";
        }
        if (policy.startsWith("allkeys-")) {
            return "it evicts any key, pending and processing lists too: queued and running tasks are lost, and "
                    + "evicted locks and done markers let duplicates run again";
        }
        return "it may evict dedupq's keys: tasks lost, duplicates run again";
    }

    private void report(State state) {
        if (Objects.equals(logged, state.policy())) {
            return;
        }
        logged = state.policy();
        String where = state.node().isEmpty() ? "" : " on " + state.node();
        if (!state.evicting()) {
            LOG.infof("Redis maxmemory-policy%s is %s: nothing of dedupq's is evicted", where, SAFE_POLICY);
        } else if (config.redis().allowEviction()) {
            LOG.warnf("Redis maxmemory-policy%s is %s, allowed by dedupq.redis.allow-eviction=true: %s", where,
                    state.policy(), harm(state.policy()));
        } else {
            LOG.errorf("Redis maxmemory-policy%s is %s: %s. Readiness is DOWN and workers do not claim until it is "
                    + "noeviction. Fix: CONFIG SET maxmemory-policy noeviction, and maxmemory-policy noeviction in "
                    + "redis.conf (on a managed Redis, in its parameter group); or accept the risk with "
                    + "dedupq.redis.allow-eviction=true", where, state.policy(), harm(state.policy()));
        }
    }

    private State readMasters() {
        List<ClusterNodes.Master> masters = cluster.masters(TIMEOUT);
        List<Uni<State>> reads = masters.stream().map(m -> read(cluster.node(m.address()), m.address())).toList();
        if (reads.isEmpty()) {
            throw new IllegalStateException("the cluster names no master");
        }
        List<State> states = Uni.join().all(reads).andFailFast().await().atMost(TIMEOUT);
        return states.stream().filter(State::evicting).findFirst()
                .orElseGet(() -> states.stream().max(Comparator.comparingDouble(State::fill)).orElseThrow());
    }

    /** INFO memory, and the policy from CONFIG GET when the node lets us (else INFO's copy of it). */
    private static Uni<State> read(Redis node, String address) {
        Uni<String> configured = node.send(Request.cmd(Command.CONFIG).arg("GET").arg("maxmemory-policy"))
                .map(RedisMemory::configValue)
                .onFailure().recoverWithItem((String) null);
        return Uni.combine().all().unis(configured, node.send(Request.cmd(Command.INFO).arg("memory")))
                .with((policy, info) -> {
                    String text = info.toString();
                    return new State(policy != null ? policy : field(text, "maxmemory_policy"),
                            policy != null ? "CONFIG GET" : "INFO", Long.parseLong(field(text, "used_memory")),
                            Long.parseLong(field(text, "maxmemory")), address);
                });
    }

    /** The value of a CONFIG GET reply: [name, value] in RESP2, {name: value} in RESP3; null when empty. */
    private static String configValue(Response reply) {
        if (reply == null || reply.size() == 0) {
            return null;
        }
        Response value = reply.containsKey("maxmemory-policy") ? reply.get("maxmemory-policy") : reply.get(1);
        return value == null ? null : value.toString();
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new IllegalStateException("INFO memory has no " + name);
    }
}
