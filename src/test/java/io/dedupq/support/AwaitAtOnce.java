package io.dedupq.support;

import io.quarkus.test.junit.callback.QuarkusTestBeforeClassCallback;
import java.time.Duration;
import org.awaitility.Awaitility;

/**
 * Awaitility checks a condition first after a poll delay as long as the poll interval (100 ms
 * unless set), even when it already holds; over the suite's waits that is minutes. Quarkus runs
 * this callback in the class loader of each test app, whose Awaitility is the one its tests use.
 */
public class AwaitAtOnce implements QuarkusTestBeforeClassCallback {

    @Override
    public void beforeClass(Class<?> testClass) {
        Awaitility.setDefaultPollDelay(Duration.ZERO);
    }
}
