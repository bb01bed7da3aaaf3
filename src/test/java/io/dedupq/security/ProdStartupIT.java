package io.dedupq.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.RedisProcess;
import io.dedupq.support.AppJvm;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged application in the prod profile: without an API key it refuses to start and
 * says what to set; with security switched off explicitly it starts; with a key it answers
 * that key only.
 */
class ProdStartupIT {

    private static final Path APP = AppJvm.packaged();
    private static final Path DIR = Path.of("target", "prod-startup", UUID.randomUUID().toString());
    private static RedisProcess redis;

    @BeforeAll
    static void redis() {
        redis = RedisProcess.start(DIR.resolve("redis"));
    }

    @AfterAll
    static void stopRedis() {
        redis.stop();
    }

    @Test
    void withoutAnyKeyTheApiPodRefusesToStartAndSaysWhatToSet() throws Exception {
        Path log = DIR.resolve("no-keys.log");
        Process app = start(freePort(), Map.of(), log);
        try {
            assertTrue(app.waitFor(120, TimeUnit.SECONDS), "still running; see " + log);
            assertNotEquals(0, app.exitValue());
            String output = Files.readString(log);
            assertTrue(output.contains("no API key is configured") && output.contains("DEDUPQ_SECURITY_ENABLED=false"),
                    "see " + log);
        } finally {
            app.destroyForcibly();
        }
    }

    @Test
    void withSecuritySwitchedOffExplicitlyItStarts() throws Exception {
        int port = freePort();
        Process app = start(port, Map.of("DEDUPQ_SECURITY_ENABLED", "false"), DIR.resolve("open.log"));
        try {
            assertEquals(200, awaitReady(app, port, "/api/queues", null));
        } finally {
            stop(app);
        }
    }

    @Test
    void withAKeyFromTheEnvironmentOnlyThatKeyGetsIn() throws Exception {
        int port = freePort();
        String key = "prod-startup-operator-key";
        Process app = start(port, Map.of("DEDUPQ_SECURITY_KEYS_OPS_SECRET", key, "DEDUPQ_SECURITY_KEYS_OPS_ROLES",
                "operator"), DIR.resolve("keyed.log"));
        try {
            assertEquals(200, awaitReady(app, port, "/api/queues", key));
            assertEquals(401, get(port, "/api/queues", null));
            assertEquals(401, get(port, "/api/queues", key + "x"));
            assertEquals(200, get(port, "/q/health/ready", null));
        } finally {
            stop(app);
        }
    }

    private static Process start(int port, Map<String, String> env, Path log) throws IOException {
        Files.createDirectories(DIR);
        ProcessBuilder builder = new ProcessBuilder(AppJvm.command(APP, List.of("-Xmx256m"),
                Map.of("quarkus.http.port", String.valueOf(port))))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("REDIS_URL", redis.url());
        builder.environment().putAll(env);
        return builder.start();
    }

    /** Polls {@code path} until the app answers something other than a refused connection. */
    private static int awaitReady(Process app, int port, String path, String key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            assertTrue(app.isAlive(), "the application exited with " + (app.isAlive() ? 0 : app.exitValue()));
            int status = get(port, path, key);
            if (status > 0) {
                return status;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("no answer on port " + port + " within 120 s");
    }

    private static int get(int port, String path, String key) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).GET();
        if (key != null) {
            request.header("X-API-Key", key);
        }
        try {
            return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException notYet) {
            return 0;
        }
    }

    private static void stop(Process app) throws InterruptedException {
        app.destroy();
        if (!app.waitFor(30, TimeUnit.SECONDS)) {
            app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
