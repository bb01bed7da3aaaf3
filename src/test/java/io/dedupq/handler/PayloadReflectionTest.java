package io.dedupq.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.support.RedisTestResource;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
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

    /** The test-only handlers (support/) are never part of a native build. */
    private static final String TEST_HANDLERS = "io.dedupq.support";

    @Test
    void everyShippedHandlerPayloadIsRegisteredForReflection() {
        List<String> shipped = registry.types().stream()
                .filter(type -> !registry.handler(type).orElseThrow().getClass().getName().startsWith(TEST_HANDLERS))
                .toList();
        assertEquals(List.of("payment", "voucher"), shipped);
        for (String type : shipped) {
            Class<?> payload = registry.handler(type).orElseThrow().payloadType();
            assertTrue(payload.isAnnotationPresent(RegisterForReflection.class),
                    "payload " + payload.getName() + " of task type " + type + " lacks @RegisterForReflection");
        }
    }
}
