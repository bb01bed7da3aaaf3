package io.dedupq.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * A test profile whose Redis is a {@link RedisTestResource} started with the given init args
 * ({@code args}, {@code config}), and with the given configuration overrides.
 */
public abstract class RedisServerProfile implements QuarkusTestProfile {

    private final Map<String, String> server;
    private final Map<String, String> overrides;

    protected RedisServerProfile(Map<String, String> server, Map<String, String> overrides) {
        this.server = Map.copyOf(server);
        this.overrides = Map.copyOf(overrides);
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return overrides;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisTestResource.class, server));
    }
}
