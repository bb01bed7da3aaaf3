package io.dedupq.support;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The test application's span exporter: Quarkus sends every finished span to the CDI beans of
 * type SpanExporter (and then starts no OTLP exporter). Only used where a test profile turns the
 * OpenTelemetry SDK on (tracing/TracingTest); elsewhere dedupq keeps it off.
 */
@ApplicationScoped
public class InMemorySpans {

    @Produces
    @Singleton
    InMemorySpanExporter exporter() {
        return InMemorySpanExporter.create();
    }
}
