package io.dedupq.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private PostgreSQL 15 server for tests: {@code initdb} into a folder under {@code target/},
 * {@code postgres} on a free port of 127.0.0.1 (never the machine's server on 5432), trust
 * authentication for the user {@code dedupq}, stopped by pid. The binaries are read from
 * {@code DEDUPQ_PG_BIN}, else {@code /usr/lib/postgresql/15/bin}. PostgreSQL refuses to run as
 * root: as root, the folder is given to the system user {@code postgres} and the programs run as
 * that user through {@code setpriv}, which execs them in place (the pid stays the server's).
 */
public final class PostgresProcess {

    public static final String USER = "dedupq";
    public static final String DATABASE = "postgres";
    private static final String SYSTEM_USER = "postgres";

    private final Path dir;
    private final Path bin;
    private final int port;
    private Process process;

    private PostgresProcess(Path dir, Path bin, int port) {
        this.dir = dir;
        this.bin = bin;
        this.port = port;
    }

    /** initdb into {@code dir}/data and start the server; fails at once when the binaries are missing. */
    public static PostgresProcess start(Path dir) {
        Path bin = Path.of(System.getenv().getOrDefault("DEDUPQ_PG_BIN", "/usr/lib/postgresql/15/bin"));
        if (!Files.isExecutable(bin.resolve("initdb")) || !Files.isExecutable(bin.resolve("postgres"))) {
            throw new IllegalStateException("PostgreSQL 15 binaries not found in " + bin
                    + " (Debian: apt-get install postgresql-15; or set DEDUPQ_PG_BIN to the folder holding initdb)");
        }
        PostgresProcess postgres = new PostgresProcess(dir.toAbsolutePath(), bin, AppJvm.freePort());
        postgres.initdb();
        postgres.startServer();
        return postgres;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** A new connection as {@link #USER}, for a test to set up and inspect tables. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), USER, "");
    }

    /** SIGTERM (a "smart" shutdown would wait for clients: SIGINT is postgres' fast one), then SIGKILL after 10 s. */
    public synchronized void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start().waitFor();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Path data() {
        return dir.resolve("data");
    }

    /** {@code program args...}, run as the {@code postgres} user when we are root. */
    private List<String> command(String program, String... args) {
        List<String> command = new ArrayList<>();
        if (root()) {
            command.addAll(List.of("setpriv", "--reuid=" + SYSTEM_USER, "--regid=" + SYSTEM_USER, "--init-groups"));
        }
        command.add(bin.resolve(program).toString());
        command.addAll(List.of(args));
        return command;
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private void initdb() {
        try {
            Files.createDirectories(dir);
            if (root()) {
                run(List.of("chown", SYSTEM_USER + ":", dir.toString()));
            }
            Process init = new ProcessBuilder(command("initdb", "-D", data().toString(),
                    "-U", USER, "--auth=trust", "--encoding=UTF8", "--no-sync"))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("initdb.log").toFile()).start();
            if (!init.waitFor(60, TimeUnit.SECONDS) || init.exitValue() != 0) {
                init.destroyForcibly();
                throw new IllegalStateException("initdb failed; see " + dir.resolve("initdb.log"));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run initdb: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during initdb", e);
        }
    }

    private void startServer() {
        try {
            // TCP only: the default socket folder /var/run/postgresql may not be writable, and one under
            // target/ can pass the 107 bytes a socket path may have in a deep checkout
            process = new ProcessBuilder(command("postgres", "-D", data().toString(),
                    "-p", Integer.toString(port), "-h", "127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off",
                    "-c", "max_connections=100"))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("postgres.log").toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start postgres: " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("postgres exited at start; see " + dir.resolve("postgres.log"));
            }
            try (Connection ignored = connect()) {
                return;
            } catch (SQLException notYet) {
                sleep();
            }
        }
        stop();
        throw new IllegalStateException("postgres on port " + port + " did not accept connections within 30 s");
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        if (new ProcessBuilder(command).inheritIO().start().waitFor() != 0) {
            throw new IllegalStateException("failed: " + String.join(" ", command));
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
