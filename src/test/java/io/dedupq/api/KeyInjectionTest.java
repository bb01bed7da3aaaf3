package io.dedupq.api;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.task;
import static io.dedupq.support.Partitions.whole;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisKeys;
import io.dedupq.support.DedupRecords;
import io.dedupq.support.Api;
import io.dedupq.support.Envelopes;
import io.dedupq.support.RedisTestResource;
import io.dedupq.support.TestRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Task ids that spell key syntax cannot reach another key: over HTTP they are refused before
 * Redis sees them, pushed straight onto the list they are dead-lettered by claim.lua, and an id
 * with colons only ever names its own keys. Checked on the exact set of keys in Redis, in an
 * application of its own so that no other test's task adds keys meanwhile.
 */
@QuarkusTest
@TestProfile(KeyInjectionTest.OwnRedis.class)
@WithTestResource(RedisTestResource.class)
class KeyInjectionTest {

    private static final String QUEUE = "flaky";
    /** Key syntax: a hash tag closed early, another queue's key, glob and protocol characters. */
    private static final List<String> HOSTILE_IDS = List.of("x}:lock:y", "x}:pending", "{dedupq:flaky}:lock:y",
            "y}", "*", "x y", "x\r\nDEL y", "../lock:y", "x\u0000y");

    public static class OwnRedis implements QuarkusTestProfile {
    }

    @Inject
    TestRedis redis;

    @Inject
    RedisKeys keys;

    private String victim;

    @BeforeEach
    void aRunningTaskHoldsTheLockOfIdY() {
        victim = keys.lock(whole(QUEUE), "y");
        redis.set(victim, "victim:1", 600_000);
    }

    @Test
    void hostileIdsOverHttpAreRefusedAndNoKeyChanges() {
        Set<String> before = stableKeys();
        for (String id : HOSTILE_IDS) {
            int status = Api.post(task(id, QUEUE, flaky(0)));
            assertEquals(400, status, id);
            given().contentType("application/json").body(Map.of("tasks", List.of(task(id, QUEUE, flaky(0)))))
                    .post("/api/tasks/batch").then().statusCode(400);
        }
        given().get("/api/tasks/{id}", "x}:lock:y").then().statusCode(400);

        assertEquals(before, stableKeys());
        assertEquals("victim:1", redis.get(victim));
    }

    @Test
    void hostileIdsPushedStraightOntoTheListAreDeadLetteredWithoutTouchingAnyKey() {
        redis.lpush(keys.dead(whole(QUEUE)), "marker");
        Set<String> before = stableKeys();
        long deadBefore = redis.llen(keys.dead(whole(QUEUE)));

        for (String id : HOSTILE_IDS) {
            redis.lpush(keys.pending(whole(QUEUE)), Envelopes.flaky(id.replace("\\", "\\\\").replace("\"", "\\\"")
                    .replace("\r", "\\r").replace("\n", "\\n").replace("\u0000", "\\u0000"), 0));
        }
        await().atMost(Duration.ofSeconds(20)).until(
                () -> redis.llen(keys.dead(whole(QUEUE))) == deadBefore + HOSTILE_IDS.size());

        assertEquals(withoutCounters(before), withoutCounters(stableKeys()), "only the dead list and the counters changed");
        assertEquals("victim:1", redis.get(victim));
        assertEquals(Integer.toString(HOSTILE_IDS.size()), redis.hget(keys.stats(whole(QUEUE)), "unparseable"));
    }

    @Test
    void anIdWithColonsNamesOnlyItsOwnKeys() {
        String id = "x:lock:y";
        Set<String> before = stableKeys();

        assertEquals(202, Api.post(task(id, QUEUE, flaky(0))));
        awaitStatus(id, "succeeded");

        Set<String> added = withoutCounters(stableKeys());
        added.removeAll(before);
        // its hash, and its dedup record's bucket when no other id had filled that bucket before
        Set<String> own = Set.of(keys.task(whole(QUEUE), id), new DedupRecords(keys, whole(QUEUE), redis::hget).bucket(id));
        assertTrue(own.containsAll(added) && added.contains(keys.task(whole(QUEUE), id)), "added: " + added);
        assertEquals("succeeded", new DedupRecords(keys, whole(QUEUE), redis::hget).outcome(id));
        assertEquals("victim:1", redis.get(victim));
    }

    /** The queue's counters (stats hash, fence) and records layout appear with its first enqueue or claim. */
    private Set<String> withoutCounters(Set<String> all) {
        Set<String> rest = new TreeSet<>(all);
        rest.removeAll(Set.of(keys.stats(whole(QUEUE)), keys.fence(whole(QUEUE)), keys.records(whole(QUEUE))));
        return rest;
    }

    /**
     * Every key but the job locks, which come and go every reaper turn and scheduled tick, the
     * roll-up history, which the scheduled job creates on its first tick, and processing lists,
     * which Redis deletes when they empty.
     */
    private Set<String> stableKeys() {
        Set<String> all = new TreeSet<>(redis.keys("*"));
        all.removeIf(key -> key.startsWith(keys.jobLock("")) || key.equals(keys.rollups())
                || key.contains("}:processing:"));
        return all;
    }
}
