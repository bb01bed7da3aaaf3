package io.dedupq.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.RawRedis;
import io.dedupq.support.SecuredRedisResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeEach;

/** Redis that speaks only TLS ({@code --port 0 --tls-port}); the app connects with {@code rediss://}. */
@QuarkusTest
@TestProfile(RedisTlsTest.Tls.class)
class RedisTlsTest extends SecuredRedisTest {

    public static class Tls extends SecuredRedis {
        public Tls() {
            super("tls");
        }
    }

    @BeforeEach
    void serverSpeaksOnlyTls() {
        assertTrue(SecuredRedisResource.redis().url().startsWith("rediss://"));
        RawRedis.assertRefusesPlainPing(SecuredRedisResource.redis().url(), null);
    }
}
