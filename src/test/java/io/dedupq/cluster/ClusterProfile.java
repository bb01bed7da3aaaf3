package io.dedupq.cluster;

import io.dedupq.support.RedisClusterTestResource;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;

/** The app against a local 3-master Redis Cluster ({@code quarkus.redis.client-type=cluster}). */
public class ClusterProfile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(RedisClusterTestResource.class));
    }
}
