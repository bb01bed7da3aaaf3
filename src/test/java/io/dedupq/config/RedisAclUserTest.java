package io.dedupq.config;

import io.dedupq.support.RawRedis;
import io.dedupq.support.SecuredRedisResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeEach;

/** Redis with an ACL user; the app logs in as that user through {@code redis://user:password@host:port}. */
@QuarkusTest
@TestProfile(RedisAclUserTest.AclUser.class)
class RedisAclUserTest extends SecuredRedisTest {

    public static class AclUser extends SecuredRedis {
        public AclUser() {
            super("acl");
        }
    }

    @BeforeEach
    void serverRefusesClientsWithoutCredentials() {
        RawRedis.assertRefusesPlainPing(SecuredRedisResource.redis().url(), "-NOAUTH");
    }
}
