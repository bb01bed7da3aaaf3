package io.dedupq.lock;

import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.DedupqConfig;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.Concurrently;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.Trigger;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A scheduled job guarded by {@link OncePerTick} runs on one pod per fire time: pods (each its
 * own predicate, as on separate JVMs) asking for the same fire time let exactly one through,
 * the next fire time again one, and a pod that comes late to a fire time is still refused.
 * The example job (stats roll-up, every 2 s in the test profile) writes one entry per tick.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class OncePerTickTest {

    private static final int PODS = 8;

    @Inject
    DistributedLock lock;

    @Inject
    RedisKeys keys;

    @Inject
    DedupqConfig config;

    @Inject
    TestRedis redis;

    /** One fire time of one job, as the scheduler hands it to the predicate. */
    private record Tick(String getId, Instant getScheduledFireTime) implements ScheduledExecution, Trigger {

        @Override
        public Trigger getTrigger() {
            return this;
        }

        @Override
        public Instant getFireTime() {
            return getScheduledFireTime;
        }

        @Override
        public Instant getNextFireTime() {
            return getScheduledFireTime.plusSeconds(60);
        }

        @Override
        public Instant getPreviousFireTime() {
            return getScheduledFireTime.minusSeconds(60);
        }

        @Override
        public boolean isOverdue() {
            return false;
        }
    }

    /** How many of the pods, asking at the same moment, were let through. */
    private long podsThatRun(Tick tick) {
        List<OncePerTick> pods = IntStream.range(0, PODS).mapToObj(i -> new OncePerTick(lock, keys, config)).toList();
        return Concurrently.run(PODS, PODS, i -> pods.get(i).test(tick)).stream().filter(skip -> !skip).count();
    }

    @Test
    void exactlyOnePodRunsEachFireTimeAndALatePodIsRefused() {
        String job = uniqueId("job");
        Instant first = Instant.parse("2030-01-01T03:00:00Z");
        Instant next = first.plusSeconds(60);

        assertEquals(1, podsThatRun(new Tick(job, first)));
        assertEquals(1, podsThatRun(new Tick(job, next)));

        assertTrue(new OncePerTick(lock, keys, config).test(new Tick(job, first)), "a late pod skips the tick");
        assertEquals(1, podsThatRun(new Tick(uniqueId("other-job"), first)), "jobs do not share ticks");
        long ttl = redis.pttl(keys.jobLock(job + "@" + first.getEpochSecond()));
        assertTrue(ttl > config.jobs().tickLockTtl().toMillis() - 60_000, "the tick's lock outlives the tick: " + ttl);
    }

    @Test
    void statsRollupWritesOneEntryPerTick() {
        await().atMost(Duration.ofSeconds(20)).until(() -> redis.zrange(keys.rollups()).size() >= 3);

        JsonPath rollups = given().get("/api/rollups?limit=3").then().statusCode(200).extract().jsonPath();
        List<Long> at = rollups.getList("at", Long.class);
        assertEquals(3, at.size());
        assertEquals(3, new HashSet<>(at).size(), "one entry per fire time: " + at);
        assertTrue(at.get(0) > at.get(1) && at.get(1) > at.get(2), "newest first: " + at);
        assertTrue(at.stream().allMatch(t -> t % 2000 == 0), "at the cron's fire times: " + at);
        assertFalse(rollups.getList("[0].queues.queue").isEmpty());
        assertTrue(rollups.getList("[0].queues.queue").contains("payment"));
    }
}
