package io.dedupq.deploy;

import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.handler.HandlerRegistry;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every hand-written deployment file (docker/k8s/, the src/main/kubernetes/ overlay, the compose
 * file) is parsed and checked against the app: required fields, selectors, probes that exist
 * here, grace periods above the shutdown grace, KEDA triggers on the real pending keys.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class DeployManifestsTest {

    static final Path K8S = Path.of("docker", "k8s");
    static final Path COMPOSE = Path.of("docker", "compose.yaml");
    /** Task types shipped with dedupq; each one's queue needs an autoscaling trigger. */
    static final List<String> SHIPPED_TYPES = List.of("payment", "voucher");

    @Inject
    RedisKeys keys;

    @Inject
    HandlerRegistry registry;

    static List<Manifest> k8s() throws IOException {
        try (Stream<Path> files = Files.list(K8S)) {
            List<Manifest> all = files.filter(f -> f.toString().endsWith(".yaml")).sorted()
                    .flatMap(f -> Manifest.load(f).stream()).toList();
            assertFalse(all.isEmpty(), "no manifests in " + K8S);
            return all;
        }
    }

    @Test
    void everyObjectHasIdentityAndEveryWorkloadIsProbedAndSelectsItsPods() throws IOException {
        for (Manifest m : k8s()) {
            m.checkIdentity();
            if (m.isWorkload()) {
                m.checkWorkload();
            }
        }
    }

    @Test
    void servicesAndDisruptionBudgetsSelectExistingPods() throws IOException {
        List<Manifest> all = k8s();
        List<Map<String, Object>> pods = all.stream().filter(Manifest::isWorkload).map(Manifest::podLabels).toList();
        for (Manifest m : all) {
            String selectorPath = m.is("Service") ? "spec.selector" : m.is("PodDisruptionBudget") ? "spec.selector.matchLabels" : null;
            if (selectorPath != null) {
                Map<String, Object> selector = m.require(selectorPath);
                assertTrue(pods.stream().anyMatch(labels -> labels.entrySet().containsAll(selector.entrySet())),
                        m + ": selector " + selector + " matches no pod template");
            }
        }
        assertEquals(Set.of("dedupq-api", "dedupq-worker"), names(all, "PodDisruptionBudget"));
    }

    @Test
    void apiAndWorkerPodsAreSplitAndOutliveTheShutdownGrace() throws IOException {
        Manifest api = workload("dedupq-api");
        Manifest worker = workload("dedupq-worker");
        assertEquals(Map.of("DEDUPQ_WORKER_ENABLED", "false"), roleSwitches(api));
        assertEquals(Map.of("DEDUPQ_API_ENABLED", "false"), roleSwitches(worker));
        api.checkGraceCoversShutdown();
        worker.checkGraceCoversShutdown();
        for (Manifest overlay : Manifest.load(Path.of("src", "main", "kubernetes", "kubernetes.yml"))) {
            overlay.checkGraceCoversShutdown();
        }
    }

    @Test
    void kedaScalesTheWorkersOnEveryShippedQueuesPendingList() throws IOException {
        List<Manifest> all = k8s();
        Manifest scaled = all.stream().filter(m -> m.is("ScaledObject")).findFirst().orElseThrow();
        assertEquals("keda.sh/v1alpha1", scaled.require("apiVersion"));
        assertEquals("dedupq-worker", scaled.require("spec.scaleTargetRef.name"));
        Set<String> lists = new TreeSet<>();
        for (Map<String, Object> trigger : scaled.<List<Map<String, Object>>>require("spec.triggers")) {
            assertEquals("redis", trigger.get("type"));
            Map<String, Object> metadata = Manifest.<Map<String, Object>>at(trigger, "metadata").orElseThrow();
            assertTrue(Integer.parseInt((String) metadata.get("listLength")) > 0, "listLength must be a positive string");
            assertEquals("redis:6379", metadata.get("address"), "the Service of redis.yaml");
            lists.add((String) metadata.get("listName"));
        }
        Set<String> expected = new TreeSet<>();
        SHIPPED_TYPES.forEach(type -> expected.add(keys.pending(whole(registry.queueOf(type)))));
        assertEquals(expected, lists);

        Manifest hpa = all.stream().filter(m -> m.is("HorizontalPodAutoscaler")).findFirst().orElseThrow();
        assertEquals("dedupq-worker", hpa.require("spec.scaleTargetRef.name"));
        List<Map<String, Object>> metrics = hpa.require("spec.metrics");
        assertEquals("cpu", Manifest.at(metrics.get(0), "resource.name").orElse(null));
    }

    @Test
    void redisKeepsAnAppendOnlyFileOnAVolume() throws IOException {
        Manifest redis = k8s().stream().filter(m -> m.is("StatefulSet") && m.name().equals("redis")).findFirst().orElseThrow();
        List<?> args = (List<?>) redis.containers().get(0).get("args");
        assertEquals(List.of("--appendonly", "yes", "--appendfsync", "everysec"), args);
        assertFalse(redis.<List<?>>require("spec.volumeClaimTemplates").isEmpty());
    }

    @Test
    void composeScalesWorkersWithoutPortsAndChecksReadiness() {
        Manifest compose = Manifest.load(COMPOSE).get(0);
        Map<String, Object> worker = compose.require("services.worker");
        assertFalse(worker.containsKey("ports"), "a fixed host port would stop --scale worker=4");
        assertEquals("false", Manifest.<Object>at(worker, "environment.DEDUPQ_API_ENABLED").map(String::valueOf).orElse(null));
        Duration stop = Duration.parse("PT" + ((String) worker.get("stop_grace_period")).toUpperCase());
        assertTrue(stop.compareTo(Manifest.defaultShutdownGrace()) > 0, "stop_grace_period above shutdown-grace");
        Map<String, Object> api = compose.require("services.api");
        assertEquals("false", Manifest.<Object>at(api, "environment.DEDUPQ_WORKER_ENABLED").map(String::valueOf).orElse(null));
        for (Map<String, Object> service : List.of(api, worker)) {
            List<String> test = Manifest.<List<String>>at(service, "healthcheck.test").orElseThrow();
            assertTrue(test.get(test.size() - 1).endsWith("/q/health/ready"), "health check on readiness: " + test);
        }
        List<?> redis = compose.require("services.redis.command");
        assertTrue(redis.containsAll(List.of("--appendonly", "yes", "--appendfsync", "everysec")));
    }

    /**
     * The image sizes its heap from the container's memory (-XX:MaxRAMPercentage): compose gives
     * its pods the limit the Kubernetes pods have, so that a compose pod does not size it from the host.
     */
    @Test
    void composeLimitsMemoryAsTheKubernetesPods() throws IOException {
        Manifest compose = Manifest.load(COMPOSE).get(0);
        for (String pod : List.of("dedupq-api", "dedupq-worker")) {
            String k8sLimit = Manifest.<String>at(workload(pod).containers().get(0), "resources.limits.memory").orElseThrow();
            assertTrue(k8sLimit.endsWith("Mi"), pod + ": " + k8sLimit);
            for (String service : List.of("api", "worker")) {
                assertEquals(k8sLimit.replace("Mi", "m"), compose.require("services." + service + ".mem_limit"), service);
            }
        }
    }

    /** The probe paths of the hand-written manifests answer 200 here (GeneratedManifestIT holds the generated ones to them). */
    @Test
    void everyProbePathExistsInTheApp() throws IOException {
        Set<String> paths = new TreeSet<>();
        k8s().stream().filter(Manifest::isWorkload).filter(m -> !m.name().equals("redis"))
                .forEach(m -> paths.addAll(m.probePaths()));
        assertEquals(Set.of("/q/health/live", "/q/health/ready"), paths);
        // the startup probe is one quarkus-kubernetes adds to the generated manifest (GeneratedManifestIT)
        paths.add("/q/health/started");
        for (String path : paths) {
            given().get(path).then().statusCode(200);
        }
    }

    private static Manifest workload(String name) throws IOException {
        return k8s().stream().filter(m -> m.is("Deployment") && m.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no Deployment " + name));
    }

    /** The DEDUPQ_*_ENABLED variables a pod sets. */
    private static Map<String, String> roleSwitches(Manifest workload) {
        Map<String, Object> container = workload.containers().get(0);
        Map<String, String> switches = new TreeMap<>();
        for (String name : List.of("DEDUPQ_API_ENABLED", "DEDUPQ_WORKER_ENABLED")) {
            Manifest.env(container, name).ifPresent(value -> switches.put(name, value));
        }
        return switches;
    }

    private static Set<String> names(List<Manifest> all, String kind) {
        Set<String> names = new TreeSet<>();
        all.stream().filter(m -> m.is(kind)).forEach(m -> names.add(m.name()));
        return names;
    }
}
