package io.dedupq.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/** What the numbers were measured on, and how busy the host was before the run started. */
public record Machine(String date, int cpus, String cpuModel, long memMib, String kernel, String jdk, String redis,
        String node, String loadavg, double busyPctAtStart) {

    public static Machine describe(String redisUrl) {
        String cpuModel = "?";
        long memKib = 0;
        try {
            cpuModel = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("?");
            memKib = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                    .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElse(0);
        } catch (IOException e) {
            // not Linux: leave the fields unknown
        }
        String redis;
        try (BenchRedis client = new BenchRedis(redisUrl)) {
            redis = client.info("server").get("redis_version");
        }
        return new Machine(Instant.now().toString().substring(0, 19) + "Z", Runtime.getRuntime().availableProcessors(),
                cpuModel, memKib / 1024, System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"), redis,
                command("node", "-v"), read("/proc/loadavg"), CpuMeter.hostBusyPctOverOneSecond());
    }

    public String summary() {
        return String.format(Locale.ROOT, "%d cpus (%s), %d MiB, %s, JDK %s, Redis %s, Node %s, loadavg %s, "
                + "host busy before start %.0f %%", cpus, cpuModel, memMib, kernel, jdk, redis, node, loadavg,
                busyPctAtStart);
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path)).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    private static String command(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? out : "not available";
        } catch (IOException e) {
            return "not available";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }
}
