package io.dedupq.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** redis-cli against one local server (a cluster node, a sentinel): what tests ask single nodes. */
public final class RedisCli {

    private RedisCli() {
    }

    /** Runs redis-cli against 127.0.0.1:{@code port} and returns what it printed. */
    public static String run(int port, String... args) {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("redis-cli " + String.join(" ", args) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run redis-cli (Debian: apt-get install redis-tools): "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Polls until {@code ready} holds, or fails after {@code seconds} with {@code what}. */
    public static void await(long seconds, String what, BooleanSupplier ready) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            try {
                if (ready.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // a node still starting refuses connections: ask again
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException(what + " not reached within " + seconds + " s");
    }
}
