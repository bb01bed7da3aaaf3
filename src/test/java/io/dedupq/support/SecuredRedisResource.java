package io.dedupq.support;

import io.dedupq.config.RedisProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A private redis-server that the application reaches only with credentials or over TLS, in
 * the way README tells operators to configure it. Init arg {@code mode}:
 * <ul>
 *   <li>{@code password}: {@code requirepass}; the app sets {@code quarkus.redis.password}</li>
 *   <li>{@code acl}: an ACL user (and requirepass for the default user); the app puts user and
 *       password in the URL, {@code redis://user:password@host:port}</li>
 *   <li>{@code tls}: {@code --port 0 --tls-port}, certificates made with openssl under
 *       target/; the app uses {@code rediss://} and trusts the test CA through a TLS
 *       configuration of the Quarkus TLS registry</li>
 * </ul>
 */
public class SecuredRedisResource implements QuarkusTestResourceLifecycleManager {

    public static final String PASSWORD = "requirepass-secret-for-tests";
    public static final String USER = "dedupq-app";
    public static final String USER_PASSWORD = "acl-user-secret-for-tests";

    private static volatile RedisProcess redis;
    private String mode;

    public static RedisProcess redis() {
        return redis;
    }

    @Override
    public void init(Map<String, String> initArgs) {
        mode = initArgs.get("mode");
    }

    @Override
    public Map<String, String> start() {
        Path dir = Path.of("target", "test-redis", mode + "-" + UUID.randomUUID());
        switch (mode) {
            case "password" -> {
                redis = RedisProcess.start(dir, "--requirepass", PASSWORD);
                return Map.of("quarkus.redis.hosts", redis.url(), "quarkus.redis.password", PASSWORD);
            }
            case "acl" -> {
                redis = RedisProcess.start(dir, "--requirepass", PASSWORD,
                        "--user", USER, "on", ">" + USER_PASSWORD, "~*", "&*", "+@all");
                return Map.of("quarkus.redis.hosts",
                        redis.url().replace("://", "://" + USER + ":" + USER_PASSWORD + "@"));
            }
            case "tls" -> {
                Path certs = certificates(dir.resolve("certs"));
                redis = RedisProcess.startTls(dir, certs);
                return Map.of("quarkus.redis.hosts", redis.url(),
                        "quarkus.redis.tls-configuration-name", "redis",
                        "quarkus.tls.redis.trust-store.pem.certs", certs.resolve("ca.crt").toAbsolutePath().toString(),
                        "quarkus.tls.redis.hostname-verification-algorithm", "HTTPS");
            }
            default -> throw new IllegalArgumentException("mode must be password, acl or tls, not " + mode);
        }
    }

    @Override
    public void stop() {
        if (redis != null) {
            redis.stop();
        }
    }

    /** A throw-away CA and a server certificate for 127.0.0.1 signed by it, as PEM files. */
    private static Path certificates(Path certs) {
        try {
            Files.createDirectories(certs);
            Files.writeString(certs.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
            openssl(certs, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
                    "-days", "2", "-subj", "/CN=dedupq test CA");
            openssl(certs, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "redis.key", "-out", "redis.csr",
                    "-subj", "/CN=127.0.0.1");
            openssl(certs, "x509", "-req", "-in", "redis.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", "redis.crt", "-days", "2", "-extfile", "san.ext");
            return certs;
        } catch (IOException e) {
            throw new IllegalStateException("cannot write certificates: " + e.getMessage(), e);
        }
    }

    private static void openssl(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile()).start();
        try {
            if (process.waitFor() != 0) {
                throw new IllegalStateException("openssl " + args[0] + " failed; see " + dir.resolve("openssl.log"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
