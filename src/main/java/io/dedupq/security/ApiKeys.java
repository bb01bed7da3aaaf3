package io.dedupq.security;

import io.dedupq.config.DedupqConfig;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The configured API keys ({@code dedupq.security.keys.<name>.secret} / {@code .roles}, and
 * {@code .previous-secret}, a second secret of the same name during a rotation) and the lookup of
 * a presented key. The lookup takes the same time whatever the key: both sides are
 * hashed to SHA-256 first (equal length), compared with {@link MessageDigest#isEqual} (which
 * does not stop at the first differing byte) and every configured key is compared, never
 * stopping at a match.
 */
@ApplicationScoped
public class ApiKeys {

    /** Shorter secrets are refused at start: an API key must not be guessable. */
    public static final int MIN_SECRET_LENGTH = 16;

    /** A key that matched: its name (the principal) and roles. */
    public record Caller(String name, Set<String> roles) {
    }

    private record Key(Caller caller, byte[] digest) {
    }

    private final List<Key> keys = new ArrayList<>();

    public ApiKeys(DedupqConfig config) {
        for (Map.Entry<String, DedupqConfig.Security.ApiKey> entry : config.security().keys().entrySet()) {
            Set<String> roles = new LinkedHashSet<>(entry.getValue().roles());
            if (roles.contains(Roles.OPERATOR)) {
                roles.add(Roles.PRODUCER);
            }
            Caller caller = new Caller(entry.getKey(), Set.copyOf(roles));
            keys.add(new Key(caller, digest(entry.getValue().secret())));
            entry.getValue().previousSecret().ifPresent(previous -> keys.add(new Key(caller, digest(previous))));
        }
    }

    /**
     * Refuses to start an API pod with security on and no key, or with a key that is too short
     * or has an unknown role. A worker-only pod serves no /api and needs no key.
     */
    void onStart(@Observes @Priority(1) StartupEvent event, DedupqConfig config) {
        if (config.api().enabled()) {
            validate(config.security());
        }
    }

    /**
     * The rules checked at start; a problem is an {@link IllegalStateException} saying what to
     * set, so the application does not come up half secured.
     */
    public static void validate(DedupqConfig.Security security) {
        if (!enabled(security)) {
            return;
        }
        if (security.keys().isEmpty()) {
            throw new IllegalStateException("dedupq.security.enabled is true but no API key is configured. Set "
                    + "dedupq.security.keys.<name>.secret and dedupq.security.keys.<name>.roles (producer, operator), "
                    + "e.g. DEDUPQ_SECURITY_KEYS_ORDERS_SECRET and DEDUPQ_SECURITY_KEYS_ORDERS_ROLES=producer, or "
                    + "switch authentication off explicitly with DEDUPQ_SECURITY_ENABLED=false (an application that "
                    + "enqueues only in-process can turn the HTTP API off instead: DEDUPQ_API_ENABLED=false)");
        }
        for (Map.Entry<String, DedupqConfig.Security.ApiKey> key : security.keys().entrySet()) {
            String name = "dedupq.security.keys." + key.getKey();
            if (key.getValue().secret().length() < MIN_SECRET_LENGTH) {
                throw new IllegalStateException(name + ".secret must have at least " + MIN_SECRET_LENGTH + " characters");
            }
            if (key.getValue().previousSecret().filter(p -> p.length() < MIN_SECRET_LENGTH).isPresent()) {
                throw new IllegalStateException(name + ".previous-secret must have at least " + MIN_SECRET_LENGTH
                        + " characters");
            }
            for (String role : key.getValue().roles()) {
                if (!role.equals(Roles.PRODUCER) && !role.equals(Roles.OPERATOR)) {
                    throw new IllegalStateException(name + ".roles has the unknown role '" + role
                            + "'; the roles are producer and operator");
                }
            }
        }
    }

    /** {@code dedupq.security.enabled}, or when it is not set: on in the prod profile, off in dev and test. */
    public static boolean enabled(DedupqConfig.Security security) {
        return security.enabled().orElse(LaunchMode.current() == LaunchMode.NORMAL);
    }

    /** The caller whose secret equals {@code presented}, compared in constant time. */
    public Optional<Caller> match(String presented) {
        byte[] digest = digest(presented);
        Caller found = null;
        for (Key key : keys) {
            if (MessageDigest.isEqual(key.digest(), digest) && found == null) {
                found = key.caller();
            }
        }
        return Optional.ofNullable(found);
    }

    private static byte[] digest(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
