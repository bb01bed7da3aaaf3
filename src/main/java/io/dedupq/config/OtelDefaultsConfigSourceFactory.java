package io.dedupq.config;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Keeps OpenTelemetry off in an application that has not said where its traces go. dedupq brings
 * quarkus-opentelemetry, whose defaults would export every span to {@code localhost:4317} and log
 * an error for each export that fails there: a surprise in an application that only added dedupq.
 * So unless the application sets an OTLP endpoint or the SDK switch itself (in any config source,
 * profile or environment variable, the {@code otel.*} names included), this source says
 * {@code quarkus.otel.sdk.disabled=true}, below every source of the application's own. With the
 * SDK off, Quarkus installs no tracer and dedupq creates no span and writes no trace field.
 */
public class OtelDefaultsConfigSourceFactory implements ConfigSourceFactory {

    /** Under the default sources (META-INF/microprofile-config.properties is 100): any setting of the application wins. */
    static final int ORDINAL = 50;

    /** Settings that say the application has chosen: an endpoint to export to, or the switch itself. */
    static final List<String> CHOSEN = List.of("quarkus.otel.sdk.disabled", "otel.sdk.disabled",
            "quarkus.otel.exporter.otlp.endpoint", "quarkus.otel.exporter.otlp.traces.endpoint",
            "otel.exporter.otlp.endpoint", "otel.exporter.otlp.traces.endpoint");

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        for (String name : CHOSEN) {
            ConfigValue value = context.getValue(name);
            if (value != null && value.getValue() != null && !value.getValue().isBlank()) {
                return List.of();
            }
        }
        return List.of(new PropertiesConfigSource(Map.of("quarkus.otel.sdk.disabled", "true"), "dedupq-otel-off", ORDINAL));
    }
}
