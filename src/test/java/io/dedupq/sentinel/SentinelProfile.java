package io.dedupq.sentinel;

import io.dedupq.support.RedisSentinelTestResource;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;

/** The app behind Redis Sentinel ({@code quarkus.redis.client-type=sentinel}): a master, a replica, a sentinel. */
public class SentinelProfile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisSentinelTestResource.class));
    }
}
