package io.dedupq.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/** The application with dedupq.sql on, against its own Redis and its own PostgreSQL. */
public class SqlProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("dedupq.sql.enabled", "true");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisTestResource.class), new TestResourceEntry(PostgresTestResource.class));
    }
}
