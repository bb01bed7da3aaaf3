package io.dedupq.security;

import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.HashMap;
import java.util.Map;

/**
 * The same table with proactive authentication, Quarkus's default and so what an application
 * that adds dedupq has (the service turns it off): the answers, problem+json bodies included,
 * must not depend on it.
 */
@QuarkusTest
@TestProfile(ProactiveApiKeySecurityTest.Proactive.class)
@WithTestResource(RedisTestResource.class)
class ProactiveApiKeySecurityTest extends ApiKeySecurityTest {

    public static class Proactive extends ApiKeySecurityTest.Secured {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("quarkus.http.auth.proactive", "true");
            return overrides;
        }
    }
}
