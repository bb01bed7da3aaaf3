package io.dedupq.health;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dedupq.queue.StoreUnavailableException;
import io.dedupq.support.Api;
import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisServerProfile;
import io.dedupq.support.TestRedis;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Redis that refuses CONFIG, as managed services do ({@code rename-command CONFIG ""}), with
 * {@code allkeys-lru}: the policy is read from INFO; {@code dedupq.redis.allow-eviction=true}
 * accepts it, so readiness is UP (saying it is allowed) and tasks run.
 */
@QuarkusTest
@TestProfile(RenamedConfigTest.ConfigRenamed.class)
class RenamedConfigTest {

    public static class ConfigRenamed extends RedisServerProfile {
        public ConfigRenamed() {
            super(Map.of("args", "--maxmemory 8mb --maxmemory-policy allkeys-lru", "config", "rename-command CONFIG \"\""),
                    Map.of("dedupq.redis.allow-eviction", "true"));
        }
    }

    @Inject
    TestRedis redis;

    @Inject
    FlakyHandler handler;

    @Test
    void thePolicyIsReadFromInfoAndAllowedEvictionKeepsReadinessUp() {
        assertThrows(StoreUnavailableException.class, () -> redis.configSet("maxmemory-policy", "noeviction"),
                "CONFIG must be refused by this server");

        JsonPath up = EvictingRedisTest.awaitMemoryCheck(200, "UP");
        assertEquals("allkeys-lru", up.getString("checks.find { it.name == 'redis-memory' }.data.policy"));
        assertEquals("INFO", up.getString("checks.find { it.name == 'redis-memory' }.data.policySource"));
        assertEquals("dedupq.redis.allow-eviction=true",
                up.getString("checks.find { it.name == 'redis-memory' }.data.allowed"));

        String id = uniqueId("allowed-eviction");
        assertEquals(202, Api.post(task(id, "flaky", flaky(0))));
        awaitStatus(id, "succeeded");
        assertEquals(1, handler.executions(id).size());
    }
}
