package io.dedupq.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.restassured.RestAssured;
import java.util.List;
import java.util.Map;

/**
 * For tests of the packaged application (prod profile, security on): configures one operator
 * API key on the launched application and makes RestAssured send it with every request.
 */
public class OperatorKeyResource implements QuarkusTestResourceLifecycleManager {

    public static final String KEY = "integration-test-operator-key";

    @Override
    public Map<String, String> start() {
        // a filter, not a request specification: that would also fix host and port before Quarkus sets them
        RestAssured.filters((request, response, next) -> {
            request.header("X-API-Key", KEY);
            return next.next(request, response);
        });
        return Map.of("dedupq.security.keys.it.secret", KEY, "dedupq.security.keys.it.roles", "operator");
    }

    @Override
    public void stop() {
        RestAssured.replaceFiltersWith(List.of());
    }
}
