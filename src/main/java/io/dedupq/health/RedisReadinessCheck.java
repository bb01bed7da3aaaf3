package io.dedupq.health;

import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisCalls;
import io.vertx.mutiny.redis.client.Command;
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
 * a restart find them. On Redis Cluster the check covers the node the client sends keyless
 * commands to; a node that lacks a script gets it through the EVAL fallback of RedisCalls.
 */
@Readiness
@ApplicationScoped
public class RedisReadinessCheck implements HealthCheck {

    /** Below Kubernetes' default probe timeout of 1 s, so a paused Redis reads as DOWN, not as a probe timeout. */
    private static final Duration TIMEOUT = Duration.ofMillis(800);

    private final RedisCalls redis;

    public RedisReadinessCheck(RedisCalls redis) {
        this.redis = redis;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder health = HealthCheckResponse.named("redis");
        try {
            List<LuaScript> missing = missingScripts();
            if (!missing.isEmpty()) {
                redis.batch(missing.stream().map(script -> Request.cmd(Command.SCRIPT).arg("LOAD").arg(script.source()))
                        .toList());
                missing = missingScripts();
            }
            return health.status(missing.isEmpty()).withData("scripts", LuaScript.values().length - missing.size())
                    .withData("missing", missing.stream().map(s -> s.name().toLowerCase()).collect(Collectors.joining(",")))
                    .build();
        } catch (RuntimeException e) {
            return health.down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }

    private List<LuaScript> missingScripts() {
        Request exists = Request.cmd(Command.SCRIPT).arg("EXISTS");
        for (LuaScript script : LuaScript.values()) {
            exists.arg(script.sha());
        }
        Response loaded = redis.send(exists, TIMEOUT);
        List<LuaScript> missing = new ArrayList<>();
        for (LuaScript script : LuaScript.values()) {
            if (loaded.get(script.ordinal()).toInteger() != 1) {
                missing.add(script);
            }
        }
        return missing;
    }
}
