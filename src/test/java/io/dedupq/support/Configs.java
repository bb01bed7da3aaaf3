package io.dedupq.support;

import io.dedupq.config.DedupqConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;

/** {@link DedupqConfig} as the app would read it, built without Quarkus, for tests of plain classes. */
public final class Configs {

    private Configs() {
    }

    /** The mapping's defaults overridden by {@code settings} (e.g. {@code dedupq.key-prefix}). */
    public static DedupqConfig dedupq(Map<String, String> settings) {
        return new SmallRyeConfigBuilder().withMapping(DedupqConfig.class)
                // durations ("30s", "500ms") as Quarkus reads them
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new PropertiesConfigSource(settings, "test", 500))
                .build().getConfigMapping(DedupqConfig.class);
    }
}
