package io.dedupq.security;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.DedupqConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.junit.jupiter.api.Test;

/**
 * The start-up rules and the key lookup, on configuration built the way Quarkus builds it (the
 * real {@link DedupqConfig} mapping, from environment variables or a mounted properties file).
 */
class ApiKeysTest {

    private static final String PRODUCER_SECRET = "p-0123456789abcdef";
    private static final String OPERATOR_SECRET = "o-0123456789abcdef";

    private static DedupqConfig config(ConfigSource source) {
        // Quarkus's converter, so that the defaults ("5s") read as they do in the application
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(DedupqConfig.class).withSources(source)
                .withConverter(Duration.class, 200, new DurationConverter()).withValidateUnknown(false).build();
        return config.getConfigMapping(DedupqConfig.class);
    }

    private static DedupqConfig env(Map<String, String> variables) {
        return config(new EnvConfigSource(variables, 300));
    }

    @Test
    void securityOnWithoutAnyKeyRefusesToStartAndSaysWhatToSet() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> ApiKeys.validate(env(Map.of()).security()));
        assertTrue(refused.getMessage().contains("DEDUPQ_SECURITY_KEYS_"), refused.getMessage());
        assertTrue(refused.getMessage().contains("DEDUPQ_SECURITY_ENABLED=false"), refused.getMessage());
    }

    @Test
    void securitySwitchedOffExplicitlyStartsWithoutKeys() {
        assertDoesNotThrow(() -> ApiKeys.validate(env(Map.of("DEDUPQ_SECURITY_ENABLED", "false")).security()));
    }

    @Test
    void keysFromEnvironmentVariablesAreFoundAndMatchTheirSecret() {
        DedupqConfig config = env(Map.of("DEDUPQ_SECURITY_KEYS_ORDERS_SECRET", PRODUCER_SECRET,
                "DEDUPQ_SECURITY_KEYS_ORDERS_ROLES", "producer",
                "DEDUPQ_SECURITY_KEYS_OPS_SECRET", OPERATOR_SECRET,
                "DEDUPQ_SECURITY_KEYS_OPS_ROLES", "operator"));
        assertDoesNotThrow(() -> ApiKeys.validate(config.security()));
        ApiKeys keys = new ApiKeys(config);

        assertEquals(Optional.of(new ApiKeys.Caller("orders", Set.of(Roles.PRODUCER))), keys.match(PRODUCER_SECRET));
        assertEquals(Optional.of(new ApiKeys.Caller("ops", Set.of(Roles.OPERATOR, Roles.PRODUCER))),
                keys.match(OPERATOR_SECRET), "an operator may do what a producer may");
    }

    @Test
    void aKeyBeingRotatedMatchesBothItsSecretsAndNothingElse() {
        DedupqConfig config = env(Map.of("DEDUPQ_SECURITY_KEYS_OPS_SECRET", OPERATOR_SECRET,
                "DEDUPQ_SECURITY_KEYS_OPS_PREVIOUS_SECRET", PRODUCER_SECRET,
                "DEDUPQ_SECURITY_KEYS_OPS_ROLES", "operator"));
        assertDoesNotThrow(() -> ApiKeys.validate(config.security()));
        ApiKeys keys = new ApiKeys(config);

        assertEquals("ops", keys.match(OPERATOR_SECRET).orElseThrow().name());
        assertEquals(keys.match(OPERATOR_SECRET), keys.match(PRODUCER_SECRET), "the previous secret is the same key");
        assertEquals(Optional.empty(), keys.match("x-0123456789abcdef"));
    }

    @Test
    void aShortPreviousSecretRefusesToStart() {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> ApiKeys.validate(env(Map.of(
                "DEDUPQ_SECURITY_KEYS_OPS_SECRET", OPERATOR_SECRET, "DEDUPQ_SECURITY_KEYS_OPS_PREVIOUS_SECRET", "short",
                "DEDUPQ_SECURITY_KEYS_OPS_ROLES", "operator")).security()));
        assertTrue(refused.getMessage().contains("dedupq.security.keys.ops.previous-secret"), refused.getMessage());
    }

    @Test
    void keysFromAMountedSecretFileAreFound() throws IOException {
        // what QUARKUS_CONFIG_LOCATIONS=/run/secrets/dedupq/keys.properties reads in a pod
        Path file = Files.createDirectories(Path.of("target", "secrets")).resolve("keys.properties");
        Files.writeString(file, "dedupq.security.keys.billing.secret=" + PRODUCER_SECRET + "\n"
                + "dedupq.security.keys.billing.roles=producer\n");
        ApiKeys keys = new ApiKeys(config(new PropertiesConfigSource(file.toUri().toURL(), 250)));

        assertEquals("billing", keys.match(PRODUCER_SECRET).orElseThrow().name());
    }

    @Test
    void onlyTheWholeSecretMatches() {
        ApiKeys keys = new ApiKeys(env(Map.of("DEDUPQ_SECURITY_KEYS_ORDERS_SECRET", PRODUCER_SECRET,
                "DEDUPQ_SECURITY_KEYS_ORDERS_ROLES", "producer")));

        for (String wrong : new String[] {"", PRODUCER_SECRET.substring(1), PRODUCER_SECRET.substring(0, 17),
            PRODUCER_SECRET + "x", PRODUCER_SECRET.toUpperCase(), " " + PRODUCER_SECRET, OPERATOR_SECRET}) {
            assertEquals(Optional.empty(), keys.match(wrong), "'" + wrong + "'");
        }
    }

    @Test
    void aShortSecretOrAnUnknownRoleRefusesToStart() {
        IllegalStateException shortSecret = assertThrows(IllegalStateException.class, () -> ApiKeys.validate(
                env(Map.of("DEDUPQ_SECURITY_KEYS_ORDERS_SECRET", "short", "DEDUPQ_SECURITY_KEYS_ORDERS_ROLES", "producer"))
                        .security()));
        assertTrue(shortSecret.getMessage().contains("dedupq.security.keys.orders.secret"), shortSecret.getMessage());

        IllegalStateException unknownRole = assertThrows(IllegalStateException.class, () -> ApiKeys.validate(
                env(Map.of("DEDUPQ_SECURITY_KEYS_ORDERS_SECRET", PRODUCER_SECRET, "DEDUPQ_SECURITY_KEYS_ORDERS_ROLES",
                        "admin")).security()));
        assertTrue(unknownRole.getMessage().contains("'admin'"), unknownRole.getMessage());
    }
}
