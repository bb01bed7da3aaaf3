package io.dedupq.health;

import io.dedupq.queue.KeyedCommand;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisCalls;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready = Redis answers and holds every Lua script. One SCRIPT EXISTS proves both; scripts
 * missing after a Redis restart or flush are loaded here (SCRIPT LOAD), so the first calls after
 * a restart find them. On Redis Cluster every master that serves slots is asked itself, and the
 * data names each one with its state: the cluster is ready only when all of them are.
 */
@Readiness
@ApplicationScoped
public class RedisReadinessCheck implements HealthCheck {

    /** Below Kubernetes' default probe timeout of 1 s, so a paused Redis reads as DOWN, not as a probe timeout. */
    private static final Duration TIMEOUT = Duration.ofMillis(800);

    private final RedisCalls redis;
    private final ClusterNodes cluster;

    public RedisReadinessCheck(RedisCalls redis, ClusterNodes cluster) {
        this.redis = redis;
        this.cluster = cluster;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder health = HealthCheckResponse.named("redis");
        try {
            return cluster.cluster() ? checkMasters(health) : checkOne(health);
        } catch (RuntimeException e) {
            return health.down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }

    /** Standalone, or the master a sentinel names: through the app's own client. */
    private HealthCheckResponse checkOne(HealthCheckResponseBuilder health) {
        List<LuaScript> missing = missing(redis.send(scriptExists(), TIMEOUT));
        if (!missing.isEmpty()) {
            redis.batch(loads(missing).stream().map(KeyedCommand::keyless).toList());
            missing = missing(redis.send(scriptExists(), TIMEOUT));
        }
        return health.status(missing.isEmpty()).withData("scripts", LuaScript.values().length - missing.size())
                .withData("missing", missing.stream().map(s -> s.name().toLowerCase()).collect(Collectors.joining(",")))
                .build();
    }

    /** Every master at once, each over its own connection; data: one entry per master, "UP" or "DOWN: why". */
    private HealthCheckResponse checkMasters(HealthCheckResponseBuilder health) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        List<ClusterNodes.Master> masters = cluster.masters(TIMEOUT);
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        List<Uni<String>> checks = new ArrayList<>();
        for (ClusterNodes.Master master : masters) {
            checks.add(master.flaggedFailed() ? Uni.createFrom().item("DOWN: flagged fail by the cluster")
                    : scriptsOn(cluster.node(master.address())).ifNoItem().after(left).fail()
                            .onItemOrFailure().transform((missing, failure) -> failure != null
                                    ? "DOWN: " + failure.getMessage()
                                    : missing.isEmpty() ? "UP" : "DOWN: scripts missing " + missing));
        }
        List<String> states = checks.isEmpty() ? List.of()
                : Uni.join().all(checks).andFailFast().await().atMost(left.plus(TIMEOUT));
        health.withData("masters", masters.size());
        for (int i = 0; i < masters.size(); i++) {
            health.withData(masters.get(i).address(), states.get(i));
        }
        return health.status(!masters.isEmpty() && states.stream().allMatch("UP"::equals)).build();
    }

    /** The scripts the node still lacks after loading the missing ones there. */
    private static Uni<List<LuaScript>> scriptsOn(Redis node) {
        return node.send(scriptExists()).map(RedisReadinessCheck::missing).chain(missing -> missing.isEmpty()
                ? Uni.createFrom().item(missing)
                : node.batch(loads(missing)).chain(loaded -> node.send(scriptExists())).map(RedisReadinessCheck::missing));
    }

    private static Request scriptExists() {
        Request exists = Request.cmd(Command.SCRIPT).arg("EXISTS");
        for (LuaScript script : LuaScript.values()) {
            exists.arg(script.sha());
        }
        return exists;
    }

    private static List<Request> loads(List<LuaScript> scripts) {
        return scripts.stream().map(script -> Request.cmd(Command.SCRIPT).arg("LOAD").arg(script.source())).toList();
    }

    private static List<LuaScript> missing(Response loaded) {
        List<LuaScript> missing = new ArrayList<>();
        for (LuaScript script : LuaScript.values()) {
            if (loaded.get(script.ordinal()).toInteger() != 1) {
                missing.add(script);
            }
        }
        return missing;
    }
}
