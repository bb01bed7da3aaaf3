package io.dedupq.deploy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.DedupqConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.WithDefault;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** One Kubernetes object read from a YAML file, with the checks every deployable object must pass. */
record Manifest(Path file, Map<String, Object> doc) {

    /** Every document of a (multi-document) YAML file. */
    @SuppressWarnings("unchecked")
    static List<Manifest> load(Path file) {
        List<Manifest> manifests = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file)) {
            for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
                if (doc != null) {
                    manifests.add(new Manifest(file, (Map<String, Object>) doc));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
        return manifests;
    }

    /** The value at a dotted path ({@code spec.template.metadata.labels}), if every step exists. */
    @SuppressWarnings("unchecked")
    static <T> Optional<T> at(Object node, String path) {
        Object current = node;
        for (String step : path.split("\\.")) {
            if (!(current instanceof Map<?, ?> map) || !map.containsKey(step)) {
                return Optional.empty();
            }
            current = map.get(step);
        }
        return Optional.ofNullable((T) current);
    }

    <T> T require(String path) {
        return Manifest.<T>at(doc, path).orElseThrow(() -> new AssertionError(this + " has no " + path));
    }

    String kind() {
        return require("kind");
    }

    String name() {
        return require("metadata.name");
    }

    boolean is(String kind) {
        return kind.equals(doc.get("kind"));
    }

    boolean isWorkload() {
        return is("Deployment") || is("StatefulSet");
    }

    /** apiVersion, kind and metadata.name: what kubectl needs to apply any object. */
    void checkIdentity() {
        for (String field : List.of("apiVersion", "kind", "metadata.name")) {
            Object value = at(doc, field).orElse(null);
            assertTrue(value instanceof String s && !s.isBlank(), this + ": " + field + " missing");
        }
    }

    /** The selector picks the pods of the template, and every container is probed. */
    void checkWorkload() {
        Map<String, Object> selector = require("spec.selector.matchLabels");
        Map<String, Object> labels = require("spec.template.metadata.labels");
        assertFalse(selector.isEmpty(), this + ": empty selector");
        assertTrue(labels.entrySet().containsAll(selector.entrySet()),
                this + ": selector " + selector + " does not match template labels " + labels);
        for (Map<String, Object> container : containers()) {
            assertNotNull(container.get("image"), this + ": container without image");
            assertNotNull(container.get("readinessProbe"), this + ": no readinessProbe");
            assertNotNull(container.get("livenessProbe"), this + ": no livenessProbe");
        }
    }

    List<Map<String, Object>> containers() {
        List<Map<String, Object>> containers = require("spec.template.spec.containers");
        assertFalse(containers.isEmpty(), this + ": no containers");
        return containers;
    }

    /** The pod's labels (template labels of a workload). */
    Map<String, Object> podLabels() {
        return require("spec.template.metadata.labels");
    }

    /** Paths of the HTTP probes of every container. */
    List<String> probePaths() {
        List<String> paths = new ArrayList<>();
        for (Map<String, Object> container : containers()) {
            for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
                Manifest.<String>at(container, probe + ".httpGet.path").ifPresent(paths::add);
            }
        }
        return paths;
    }

    /** A dedupq pod is killed only after preStop and (where it runs workers) the shutdown grace have run out. */
    void checkGraceCoversShutdown() {
        int grace = require("spec.template.spec.terminationGracePeriodSeconds");
        for (Map<String, Object> container : containers()) {
            int preStop = Manifest.<Integer>at(container, "lifecycle.preStop.sleep.seconds")
                    .orElseThrow(() -> new AssertionError(this + ": no preStop sleep"));
            boolean runsWorkers = !env(container, "DEDUPQ_WORKER_ENABLED").orElse("true").equals("false");
            Duration shutdownGrace = !runsWorkers ? Duration.ZERO : env(container, "DEDUPQ_WORKER_SHUTDOWN_GRACE")
                    .map(DurationConverter::parseDuration).orElse(defaultShutdownGrace());
            assertTrue(grace > preStop + shutdownGrace.toSeconds(), this + ": terminationGracePeriodSeconds " + grace
                    + " must exceed preStop " + preStop + " s + shutdown-grace " + shutdownGrace.toSeconds() + " s");
        }
    }

    static Optional<String> env(Map<String, Object> container, String name) {
        List<Map<String, Object>> env = Manifest.<List<Map<String, Object>>>at(container, "env").orElse(List.of());
        return env.stream().filter(e -> name.equals(e.get("name"))).map(e -> String.valueOf(e.get("value"))).findFirst();
    }

    /** dedupq.worker.shutdown-grace as DedupqConfig declares its default (the test profile shortens it). */
    static Duration defaultShutdownGrace() {
        try {
            WithDefault value = DedupqConfig.Worker.class.getMethod("shutdownGrace").getAnnotation(WithDefault.class);
            return DurationConverter.parseDuration(value.value());
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return file + " " + doc.get("kind") + "/" + at(doc, "metadata.name").orElse("?");
    }
}
