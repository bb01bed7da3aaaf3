package io.dedupq.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The manifests quarkus-kubernetes generated at package time (so this runs in failsafe, after
 * package): the overlay from src/main/kubernetes was merged, probes use the paths that
 * DeployManifestsTest found answering in the app, resources are set.
 */
class GeneratedManifestIT {

    static final Path GENERATED = Path.of("target", "kubernetes", "kubernetes.yml");

    @Test
    void generatedDeploymentIsProbedSizedAndOutlivesTheShutdownGrace() {
        assertTrue(Files.exists(GENERATED), GENERATED + " was not generated");
        List<Manifest> all = Manifest.load(GENERATED);
        all.forEach(Manifest::checkIdentity);
        Manifest deployment = all.stream().filter(m -> m.is("Deployment")).findFirst().orElseThrow();
        deployment.checkWorkload();
        deployment.checkGraceCoversShutdown();
        assertEquals(Set.of("/q/health/live", "/q/health/ready", "/q/health/started"),
                new TreeSet<>(deployment.probePaths()));
        for (String resource : List.of("requests.cpu", "requests.memory", "limits.memory")) {
            assertTrue(Manifest.at(deployment.containers().get(0), "resources." + resource).isPresent(), resource);
        }
        assertTrue(all.stream().anyMatch(m -> m.is("Service")), "a Service");
    }
}
