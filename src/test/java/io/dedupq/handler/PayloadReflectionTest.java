package io.dedupq.handler;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.RedisTestResource;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * Jackson binds every handler's payload record reflectively; in a native binary that works only
 * for registered classes. (.ci/check-native-sources checks that the registration reaches
 * native-image.)
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class PayloadReflectionTest {

    @Inject
    HandlerRegistry registry;

    @Test
    void everyHandlerPayloadIsRegisteredForReflection() {
        assertFalse(registry.types().isEmpty());
        for (String type : registry.types()) {
            Class<?> payload = registry.handler(type).orElseThrow().payloadType();
            assertTrue(payload.isAnnotationPresent(RegisterForReflection.class),
                    "payload " + payload.getName() + " of task type " + type + " lacks @RegisterForReflection");
        }
    }
}
