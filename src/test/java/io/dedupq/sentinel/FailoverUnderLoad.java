package io.dedupq.sentinel;

import static io.dedupq.support.Api.flaky;
import static io.dedupq.support.Api.submit;
import static io.dedupq.support.Api.task;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.dedupq.support.FlakyHandler;
import io.dedupq.support.RedisSentinelGroup;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A stream of enqueues through the app while the master of a {@link RedisSentinelGroup} is killed
 * (SIGKILL) and the sentinel fails over: which acknowledged tasks the new master lost, and how
 * each task ran. Producers behave as the API asks: a 503 is retried with the same id, a 2xx
 * moves on to the next id, so an id acknowledged once is never sent again.
 */
final class FailoverUnderLoad {

    private static final int PRODUCERS = 2;

    /** What came of it: acknowledged ids, those the new master does not know, latencies of the 2xx sent before the kill (ms). */
    record Outcome(List<String> acknowledged, List<String> lost, List<Long> latenciesBeforeKill) {

        long percentile(int p) {
            List<Long> sorted = new ArrayList<>(latenciesBeforeKill);
            Collections.sort(sorted);
            return sorted.isEmpty() ? -1 : sorted.get(Math.min(sorted.size() - 1, sorted.size() * p / 100));
        }
    }

    private FailoverUnderLoad() {
    }

    static Outcome run(RedisSentinelGroup group, String prefix) throws InterruptedException {
        List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicBoolean killed = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            String ids = prefix + "-" + p + "-";
            Thread producer = new Thread(() -> {
                for (int n = 0; !stop.get(); n++) {
                    String id = ids + n;
                    while (!stop.get()) {
                        long started = System.nanoTime();
                        boolean beforeKill = !killed.get();
                        Response answer = submit(task(id, "flaky", flaky(0)));
                        if (answer.statusCode() == 202 || answer.statusCode() == 200) {
                            acknowledged.add(id);
                            if (beforeKill) {
                                latencies.add((System.nanoTime() - started) / 1_000_000);
                            }
                            break;
                        }
                    }
                }
            }, "producer-" + p);
            producer.start();
            producers.add(producer);
        }
        // tasks in flight at the kill are what matters, not how many came before it
        Thread.sleep(2_000);
        killed.set(true);
        group.master().kill();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(group::failedOver);
        int before = acknowledged.size();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> acknowledged.size() > before + 20);
        stop.set(true);
        for (Thread producer : producers) {
            producer.join(30_000);
        }
        List<String> lost = new ArrayList<>();
        for (String id : List.copyOf(acknowledged)) {
            if (given().get("/api/tasks/" + id).statusCode() == 404) {
                lost.add(id);
            }
        }
        return new Outcome(List.copyOf(acknowledged), lost, List.copyOf(latencies));
    }

    /**
     * Waits until every acknowledged task the new master kept has run and reads succeeded; returns
     * the ids that ran more than once.
     */
    static List<String> awaitRuns(Outcome outcome, FlakyHandler handler) {
        List<String> kept = new ArrayList<>(outcome.acknowledged());
        kept.removeAll(outcome.lost());
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .until(() -> kept.stream().noneMatch(id -> handler.executions(id).isEmpty()));
        for (String id : kept) {
            // read at once: most have finished by now, and a first poll after 100 ms each adds up over a thousand ids
            await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100)).until(
                    () -> "succeeded".equals(given().get("/api/tasks/" + id).jsonPath().getString("status")));
        }
        return kept.stream().filter(id -> handler.executions(id).size() > 1).toList();
    }
}
