package io.dedupq.queue;

import static io.dedupq.support.Api.uniqueId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.support.RedisCli;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Enqueues made in one turn of an event loop go to Redis as one enqueue.lua call, and each
 * caller is answered for its own tasks, as if the calls had been sent one after the other:
 * seen in Redis's MONITOR stream, which shows every EVALSHA with its arguments.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class EnqueueCoalescerTest {

    @Inject
    EnqueueCoalescer coalescer;

    @Inject
    TaskQueue queue;

    @Inject
    QueuePartitions partitions;

    @Inject
    Vertx vertx;

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void theEnqueuesOfOneTurnShareOneCallAndEachGetsItsOwnAnswers() throws Exception {
        String first = uniqueId("coalesced");
        String second = uniqueId("coalesced");
        List<Map<Partition, List<EnqueueScript.Task>>> callers = List.of(
                tasks(first, 0), tasks(second, 0), tasks(first, 0), tasks(first, 1));

        // Redis knows the script by its SHA from here on (a first call after SCRIPT FLUSH goes as EVAL)
        coalescer.answers(tasks(uniqueId("coalesced-warm"), 0)).await().atMost(Duration.ofSeconds(10));
        List<String> sent = new CopyOnWriteArrayList<>();
        Process monitor = monitor(sent);
        try {
            List<CompletableFuture<List<List<EnqueueScript.Answer>>>> answers = new ArrayList<>();
            CompletableFuture<Void> subscribed = new CompletableFuture<>();
            vertx.getOrCreateContext().runOnContext(v -> {
                callers.forEach(tasks -> answers.add(coalescer.answers(tasks).subscribeAsCompletionStage()));
                subscribed.complete(null);
            });
            subscribed.get(10, TimeUnit.SECONDS);

            assertEquals(List.of(EnqueueScript.Verdict.QUEUED), verdicts(answers.get(0)), "the first id is new");
            assertEquals(List.of(EnqueueScript.Verdict.QUEUED), verdicts(answers.get(1)), "the second id is new");
            assertEquals(List.of(EnqueueScript.Verdict.DUPLICATE), verdicts(answers.get(2)),
                    "the first id again, same payload, after it in the same call");
            assertEquals(List.of(EnqueueScript.Verdict.CONFLICT), verdicts(answers.get(3)), "the first id, another payload");

            RedisCli.await(10, "MONITOR shows the call", () -> sent.stream().anyMatch(line -> line.contains(second)));
            // enqueue.lua's calls (a worker's claim.lua call names the ids too, once it claims them)
            List<String> calls = sent.stream().filter(line -> line.contains(LuaScript.ENQUEUE.sha()))
                    .filter(line -> line.contains(first) || line.contains(second)).collect(Collectors.toList());
            assertEquals(1, calls.size(), "one script call carried all four: " + calls);
            assertTrue(calls.get(0).contains(first) && calls.get(0).contains(second), calls.get(0));
        } finally {
            monitor.destroy();
        }
    }

    /** One flaky task of id {@code id} (payload {@code failures}), in its partition. */
    private Map<Partition, List<EnqueueScript.Task>> tasks(String id, int failures) {
        TaskSubmission submission = new TaskSubmission(id, "flaky", mapper.createObjectNode().put("failures", failures));
        TaskQueue.Prepared prepared = queue.prepareAll(List.of(submission)).get(0);
        return Map.of(partitions.forTask(prepared.queue(), prepared.id()), List.of(prepared.task()));
    }

    private static List<EnqueueScript.Verdict> verdicts(CompletableFuture<List<List<EnqueueScript.Answer>>> answers)
            throws Exception {
        return answers.get(10, TimeUnit.SECONDS).get(0).stream().map(EnqueueScript.Answer::verdict).toList();
    }

    /** redis-cli MONITOR against the test Redis, its lines collected into {@code lines} until destroyed. */
    private static Process monitor(List<String> lines) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("redis-cli", "-h", "127.0.0.1", "-p",
                Integer.toString(RedisTestResource.redis().port()), "monitor").redirectErrorStream(true).start();
        BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        // MONITOR answers OK before it streams: from then on every command is seen
        String ok = reader.readLine();
        assertEquals("OK", ok, "redis-cli monitor");
        Thread pump = new Thread(() -> {
            try {
                for (String line; (line = reader.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the process was destroyed
            }
        }, "monitor-reader");
        pump.setDaemon(true);
        pump.start();
        return process;
    }
}
