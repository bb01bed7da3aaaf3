package io.dedupq.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.AppJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The packaged app in the dev profile, started and put to work, logs no "This Gauge has been
 * already registered" WARN: a new user reads every WARN as a problem. It needs a JVM of its own,
 * because Micrometer logs that WARN once per JVM only (later ones at DEBUG): a test in a shared
 * JVM could miss it. Payments go through both Redis clients (the app's and the worker's own) and
 * through the fault-tolerance guard of the HTTP path, each of which registered meters again before.
 */
class MetersRegisteredOnceIT {

    private static final int PAYMENTS = 20;

    @Test
    void startAndWorkRegisterNoMeterTwice() {
        Path dir = Path.of("target", "meters-once", UUID.randomUUID().toString()).toAbsolutePath();
        // as README's first command runs it: the dev profile, with the private Redis it starts (data under dir)
        AppJvm app = AppJvm.of(AppJvm.packagedJar()).name("meters").directory(dir).log(dir.resolve("app.log"))
                .property("quarkus.profile", "dev").start();
        try {
            app.awaitHttp(Duration.ofSeconds(120), true);
            app.awaitWorkerId(Duration.ofSeconds(60));
            String account = "acc-meters-" + UUID.randomUUID();
            assertEquals(201, app.sendUntilAnswered("PUT", "/api/accounts/" + account, "{\"currency\":\"EUR\",\"balance\":\"100.00\"}")
                    .statusCode());
            List<String> ids = IntStream.range(0, PAYMENTS).mapToObj(i -> "pay-meters-" + UUID.randomUUID()).toList();
            for (String id : ids) {
                assertEquals(202, app.sendUntilAnswered("POST", "/api/tasks", "{\"id\":\"" + id + "\",\"type\":\"payment\",\"payload\":"
                        + "{\"accountId\":\"" + account + "\",\"amount\":\"1.00\",\"currency\":\"EUR\",\"reference\":\"r\"}}")
                        .statusCode());
            }
            awaitSucceeded(app, ids);
            assertEquals(200, app.send("GET", "/q/metrics", null).statusCode());

            List<String> twice = app.logLines().stream().filter(line -> line.contains("already registered")).toList();
            assertTrue(twice.isEmpty(), "meters registered twice: " + twice + "; see " + app.log());
        } finally {
            app.close();
        }
    }

    private static void awaitSucceeded(AppJvm app, List<String> ids) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (String id : ids) {
            while (!app.send("GET", "/api/tasks/" + id, null).body().contains("\"status\":\"succeeded\"")) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(id + " did not succeed within 60 s; see " + app.log());
                }
                AppJvm.sleep(50);
            }
        }
    }
}
