package com.example.shop;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The shop's tests against a PostgreSQL 15 of their own: {@code initdb} under {@code target/},
 * the server on a free port of 127.0.0.1 only (never 5432; no Unix socket, whose path would be
 * too long under target/), stopped by its pid. PostgreSQL refuses to
 * run as root, so as root both run as the system user {@code postgres} ({@code setpriv} execs in
 * place: the pid is the server's). {@code DEDUPQ_PG_BIN} names another folder of binaries.
 */
public class ShopDatabase implements QuarkusTestResourceLifecycleManager {

    private static final String USER = "shop";
    private Process server;

    @Override
    public Map<String, String> start() {
        Path bin = Path.of(System.getenv().getOrDefault("DEDUPQ_PG_BIN", "/usr/lib/postgresql/15/bin"));
        Path dir = Path.of("target", "shop-postgres", UUID.randomUUID().toString()).toAbsolutePath();
        int port = freePort();
        try {
            Files.createDirectories(dir);
            if (root()) {
                exec(List.of("chown", "postgres:", dir.toString()), dir.resolve("chown.log"));
            }
            exec(asPostgres(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", USER,
                    "--auth=trust", "--no-sync"), dir.resolve("initdb.log"));
            server = new ProcessBuilder(asPostgres(bin.resolve("postgres").toString(), "-D", dir.resolve("data").toString(),
                    "-p", String.valueOf(port), "-h", "127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off"))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("postgres.log").toFile()).start();
            String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
            awaitConnections(url);
            return Map.of("quarkus.datasource.jdbc.url", url, "quarkus.datasource.username", USER);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start PostgreSQL from " + bin + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        if (server == null || !server.isAlive()) {
            return;
        }
        try {
            // SIGINT is PostgreSQL's fast shutdown; SIGTERM would wait for the pool's connections
            new ProcessBuilder("kill", "-INT", String.valueOf(server.pid())).start().waitFor();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        } catch (IOException e) {
            server.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitConnections(String url) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                DriverManager.getConnection(url, USER, "").close();
                return;
            } catch (SQLException notYet) {
                if (!server.isAlive() || System.nanoTime() > deadline) {
                    stop();
                    throw new IllegalStateException("PostgreSQL did not start; see its log under target/shop-postgres");
                }
                Thread.sleep(50);
            }
        }
    }

    private static List<String> asPostgres(String... command) {
        List<String> line = new ArrayList<>();
        if (root()) {
            line.addAll(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"));
        }
        line.addAll(List.of(command));
        return line;
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void exec(List<String> command, Path log) throws IOException, InterruptedException {
        File out = log.toFile();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out).start();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " failed; see " + log);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }
}
