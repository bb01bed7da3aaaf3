package io.dedupq.config;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private redis-server started from PATH on a free port, with AOF on and its data in a folder
 * of ours. Dev mode starts one when no Redis address is configured; the tests start their own
 * (and stop, pause or restart them). Never used by the production profile.
 */
public final class RedisProcess {

    public static final String MISSING = "redis-server is not on PATH. Install it (Debian/Ubuntu: "
            + "'sudo apt-get install redis-server') or point dedupq at a running Redis with REDIS_URL "
            + "(or quarkus.redis.hosts), e.g. REDIS_URL=redis://localhost:6379";

    private final Path dir;
    private final int port;
    private final List<String> extraArgs;
    private final boolean tls;
    private final boolean ownSession;
    private Process process;

    private RedisProcess(Path dir, int port, List<String> extraArgs, boolean tls, boolean ownSession) {
        this.dir = dir;
        this.port = port;
        this.extraArgs = List.copyOf(extraArgs);
        this.tls = tls;
        this.ownSession = ownSession;
    }

    /**
     * Starts redis-server on a free port with its files under {@code dir}; {@code extraArgs} are
     * more redis-server options, e.g. {@code --requirepass secret}.
     */
    public static RedisProcess start(Path dir, String... extraArgs) {
        RedisProcess redis = new RedisProcess(dir, freePort(), List.of(extraArgs), false, false);
        redis.start();
        return redis;
    }

    /**
     * As {@link #start(Path, String...)}, in a session of its own (setsid, where the system has
     * it): a terminal's Ctrl-C signals its whole foreground process group, and then reaches only
     * the JVM, which stops this server once it is done with it.
     */
    public static RedisProcess startInOwnSession(Path dir) {
        RedisProcess redis = new RedisProcess(dir, freePort(), List.of(), false, true);
        redis.start();
        return redis;
    }

    /**
     * Starts redis-server that speaks TLS only ({@code --port 0}) on a free port, with the PEM
     * files {@code redis.crt}, {@code redis.key} and {@code ca.crt} of {@code certs}; clients
     * need no certificate of their own.
     */
    public static RedisProcess startTls(Path dir, Path certs, String... extraArgs) {
        int port = freePort();
        List<String> args = new ArrayList<>(List.of("--port", "0", "--tls-port", Integer.toString(port),
                "--tls-cert-file", certs.resolve("redis.crt").toAbsolutePath().toString(),
                "--tls-key-file", certs.resolve("redis.key").toAbsolutePath().toString(),
                "--tls-ca-cert-file", certs.resolve("ca.crt").toAbsolutePath().toString(),
                "--tls-auth-clients", "no"));
        args.addAll(List.of(extraArgs));
        RedisProcess redis = new RedisProcess(dir, port, args, true, false);
        redis.start();
        return redis;
    }

    public String url() {
        return (tls ? "rediss" : "redis") + "://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** Starts (again) on the same port and folder: AOF brings back what was written before. */
    public synchronized void start() {
        requireRedisServer(System.getenv("PATH"));
        try {
            Files.createDirectories(dir);
            List<String> command = new ArrayList<>();
            if (ownSession && onPath(System.getenv("PATH"), "setsid")) {
                // setsid execs redis-server in the same process: pid() stays the server's
                command.add("setsid");
            }
            command.addAll(List.of("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--dir", dir.toAbsolutePath().toString(), "--appendonly", "yes",
                    "--appendfsync", "everysec", "--save", "", "--daemonize", "no",
                    "--logfile", dir.resolve("redis.log").toAbsolutePath().toString()));
            command.addAll(extraArgs);
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.out").toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start redis-server: " + e.getMessage(), e);
        }
        awaitPong();
    }

    /** Stops the process (SIGTERM, then SIGKILL after 5 s) and waits for it. */
    public synchronized void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        resume();
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL, as a crash: no shutdown, nothing more written or sent to replicas. */
    public synchronized void kill() {
        if (process == null || !process.isAlive()) {
            return;
        }
        resume();
        try {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGSTOP: the server keeps its connections but answers nothing, like a long GC or a network stall. */
    public void pause() {
        signal("-STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        signal("-CONT");
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    private void signal(String signal) {
        if (!alive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("cannot signal redis-server: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitPong() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited at start; see " + dir.resolve("redis.log"));
            }
            if (pings()) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new IllegalStateException("redis-server on port " + port + " did not answer within 10 s");
    }

    /**
     * True when PING over a raw socket gets +PONG, or -NOAUTH from a server that wants a
     * password: the server accepts commands. A TLS server is up once it accepts connections.
     */
    private boolean pings() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            if (tls) {
                return true;
            }
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[7];
            int n = in.readNBytes(reply, 0, 7);
            String answer = new String(reply, 0, n, StandardCharsets.US_ASCII);
            return answer.startsWith("+PONG") || answer.startsWith("-NOAUTH");
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    /** Fails at once, saying how to get Redis, when no redis-server is on {@code path}. */
    static void requireRedisServer(String path) {
        if (!onPath(path, "redis-server")) {
            throw new IllegalStateException(MISSING);
        }
    }

    private static boolean onPath(String path, String program) {
        if (path != null) {
            for (String folder : path.split(File.pathSeparator)) {
                if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
                    return true;
                }
            }
        }
        return false;
    }
}
