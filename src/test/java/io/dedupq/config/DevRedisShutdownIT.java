package io.dedupq.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.AppJvm;
import io.dedupq.support.Breakpoint;
import io.dedupq.support.RedisCli;
import io.dedupq.tasks.payment.PaymentHandler;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The service as {@code ./mvnw quarkus:dev} runs it from a fresh clone: the dev profile and no
 * Redis address, so it starts its private redis-server, with its data under target/dev-redis of
 * its working directory. The packaged jar in the dev profile has the same starter and the same
 * JVM shutdown hooks as quarkus:dev's JVM. A payment's handler is held past the shutdown grace
 * (a debugger's breakpoint stops its thread), then SIGTERM ends the JVM as Ctrl-C ends
 * quarkus:dev: the worker pool must hand the copy back to pending before the private Redis stops.
 * Ctrl-C signals the terminal's whole process group, so the private Redis must not be in the JVM's.
 */
class DevRedisShutdownIT {

    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final Pattern PRIVATE_REDIS = Pattern.compile("started a private redis-server at redis://127\\.0\\.0\\.1:(\\d+)");
    private static final String ACCOUNT = "acc-held";

    @Test
    void copyOfAHandlerPastTheGraceIsBackOnPendingInThePrivateRedisData() throws Exception {
        Path dir = Path.of("target", "dev-shutdown", UUID.randomUUID().toString()).toAbsolutePath();
        String id = "pay-held-" + UUID.randomUUID();
        int debugPort = AppJvm.freePort();
        AppJvm app = AppJvm.of(AppJvm.packagedJar()).name("dev").directory(dir).log(dir.resolve("app.log"))
                .jvmOptions(Breakpoint.jvmOption(debugPort))
                .property("quarkus.profile", "dev")
                .property("dedupq.worker.shutdown-grace", GRACE.toMillis() + "ms")
                .start();
        String worker;
        int privateRedis = -1;
        boolean redisOutlivedTheApp;
        try {
            app.awaitHttp(Duration.ofSeconds(120), true);
            worker = app.awaitWorkerId(Duration.ofSeconds(60));
            privateRedis = privateRedisPort(app);
            // Ctrl-C in a terminal signals the whole foreground process group: Redis must not get it first
            assertNotEquals(processGroup(app.pid()), processGroup(redisPid(privateRedis)),
                    "the private redis-server is in the app's process group: Ctrl-C would stop it at once");
            try (Breakpoint handler = Breakpoint.attach(debugPort, PaymentHandler.class.getName(), "handle")) {
                send(app, "PUT", "/api/accounts/" + ACCOUNT, "{\"currency\":\"EUR\",\"balance\":\"100.00\"}", 201);
                send(app, "POST", "/api/tasks", "{\"id\":\"" + id + "\",\"type\":\"payment\",\"payload\":{\"accountId\":\""
                        + ACCOUNT + "\",\"amount\":\"12.50\",\"currency\":\"EUR\",\"reference\":\"held\"}}", 202);
                handler.awaitHit(Duration.ofSeconds(30));

                app.terminate();
                assertTrue(app.awaitExit(GRACE.plusSeconds(60)).isPresent(), "still running after SIGTERM; see " + app.log());
            }
        } finally {
            app.close();
            redisOutlivedTheApp = stopIfAlive(privateRedis);
        }
        assertFalse(redisOutlivedTheApp, "the private redis-server on port " + privateRedis + " outlived the app");

        Optional<String> unrequeued = app.logLines().stream().filter(l -> l.contains("stopped without requeueing")).findFirst();
        RedisProcess data = RedisProcess.start(dir.resolve("target").resolve("dev-redis"));
        try {
            // the keys as README's key table names them
            String pending = RedisCli.run(data.port(), "LRANGE", "{dedupq:payment}:pending", "0", "-1");
            assertTrue(pending.contains(id), "the held copy is not on pending in the Redis data the app left ("
                    + unrequeued.orElse("no warning") + "); pending: " + pending + "; see " + app.log());
            assertEquals("0", RedisCli.run(data.port(), "LLEN", "{dedupq:payment}:processing:" + worker).trim(),
                    "copies left in the worker's processing list");
        } finally {
            data.stop();
        }
        assertTrue(unrequeued.isEmpty(), unrequeued.orElse(""));
        assertTrue(app.logLines().stream().anyMatch(l -> l.contains("1 unfinished copies back on pending")),
                "the worker did not report its copy back on pending; see " + app.log());
    }

    /** The port of the redis-server the app said it started. */
    private static int privateRedisPort(AppJvm app) {
        for (String line : app.logLines()) {
            Matcher m = PRIVATE_REDIS.matcher(line);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        throw new IllegalStateException("the app started no private redis-server; see " + app.log());
    }

    /** The private redis-server must end with the app: true when it did not (it is stopped now, by its pid). */
    private static boolean stopIfAlive(int port) {
        if (port < 0) {
            return false;
        }
        String info;
        try {
            info = RedisCli.run(port, "INFO", "server");
        } catch (IllegalStateException gone) {
            return false;
        }
        ProcessHandle.of(pidIn(info)).ifPresent(ProcessHandle::destroy);
        return true;
    }

    private static long redisPid(int port) {
        return pidIn(RedisCli.run(port, "INFO", "server"));
    }

    private static long pidIn(String info) {
        Matcher pid = Pattern.compile("process_id:(\\d+)").matcher(info);
        if (!pid.find()) {
            throw new IllegalStateException("no process_id in INFO server: " + info);
        }
        return Long.parseLong(pid.group(1));
    }

    /** The process group of a Linux process, from /proc (the fifth field of its stat line). */
    private static long processGroup(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
    }

    private static void send(AppJvm app, String method, String path, String json, int expected) {
        HttpResponse<String> response = app.sendUntilAnswered(method, path, json);
        assertEquals(expected, response.statusCode(), method + " " + path + ": " + response.body());
    }
}
