package io.dedupq.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The OpenTelemetry SDK stays off in an application that configured nowhere to send traces, and
 * is the application's to decide as soon as it names an endpoint or sets the switch itself.
 */
class OtelDefaultsTest {

    private static final String SWITCH = "quarkus.otel.sdk.disabled";

    @Test
    void withNoEndpointTheSdkIsOff() {
        assertEquals(Optional.of(true), sdkDisabled(Map.of("quarkus.redis.hosts", "redis://r:6379"), "prod"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"quarkus.otel.exporter.otlp.endpoint", "quarkus.otel.exporter.otlp.traces.endpoint",
            "otel.exporter.otlp.endpoint", "otel.exporter.otlp.traces.endpoint", "%prod.quarkus.otel.exporter.otlp.endpoint"})
    void anEndpointOfTheApplicationsLeavesTheSdkToIt(String name) {
        assertEquals(Optional.empty(), sdkDisabled(Map.of(name, "http://collector:4317"), "prod"));
    }

    @Test
    void anEndpointOfAnotherProfileDoesNot() {
        assertEquals(Optional.of(true), sdkDisabled(Map.of("%dev.quarkus.otel.exporter.otlp.endpoint", "http://c:4317"), "prod"));
    }

    @Test
    void theApplicationsOwnSwitchWinsEitherWay() {
        assertEquals(Optional.of(false), sdkDisabled(Map.of(SWITCH, "false"), "prod"));
        assertEquals(Optional.of(false), sdkDisabled(Map.of("otel.sdk.disabled", "false"), "prod"), "the otel.* form");
        assertEquals(Optional.of(true), sdkDisabled(Map.of(SWITCH, "true", "quarkus.otel.exporter.otlp.endpoint", "http://c:4317"),
                "prod"));
    }

    /** quarkus.otel.sdk.disabled as the application's own source (ordinal 250) and dedupq's factory give it. */
    private static Optional<Boolean> sdkDisabled(Map<String, String> application, String profile) {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withProfile(profile)
                .withSources(new PropertiesConfigSource(application, "application", 250))
                .withSources(new OtelDefaultsConfigSourceFactory()).build();
        Optional<Boolean> value = config.getOptionalValue(SWITCH, Boolean.class);
        if (value.isEmpty() && application.containsKey("otel.sdk.disabled")) {
            // Quarkus reads the otel.* form where quarkus.otel.* is not set (its fallback interceptor, not built here)
            return config.getOptionalValue("otel.sdk.disabled", Boolean.class);
        }
        return value;
    }
}
