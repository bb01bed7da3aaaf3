package io.dedupq.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import java.util.Map;

/**
 * For tests of the packaged application (prod profile, security on): configures one operator
 * API key on the launched application and makes RestAssured send it with every request.
 */
public class OperatorKeyResource implements QuarkusTestResourceLifecycleManager {

    public static final String KEY = "integration-test-operator-key";

    @Override
    public Map<String, String> start() {
        RestAssured.requestSpecification = new RequestSpecBuilder().addHeader("X-API-Key", KEY).build();
        return Map.of("dedupq.security.keys.it.secret", KEY, "dedupq.security.keys.it.roles", "operator");
    }

    @Override
    public void stop() {
        RestAssured.requestSpecification = null;
    }
}
