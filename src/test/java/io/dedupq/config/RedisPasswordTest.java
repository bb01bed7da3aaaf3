package io.dedupq.config;

import io.dedupq.support.RawRedis;
import io.dedupq.support.SecuredRedisResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeEach;

/** Redis with {@code requirepass}; the app authenticates with {@code quarkus.redis.password}. */
@QuarkusTest
@TestProfile(RedisPasswordTest.Password.class)
class RedisPasswordTest extends SecuredRedisTest {

    public static class Password extends SecuredRedis {
        public Password() {
            super("password");
        }
    }

    @BeforeEach
    void serverRefusesClientsWithoutThePassword() {
        RawRedis.assertRefusesPlainPing(SecuredRedisResource.redis().url(), "-NOAUTH");
    }
}
