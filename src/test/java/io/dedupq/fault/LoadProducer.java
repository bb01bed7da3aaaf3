package io.dedupq.fault;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends the plan's tasks in rounds, each one with its duplicates: every second task of a round
 * is sent again at the same moment from another thread (a few of them as single
 * {@code POST /api/tasks}), every fourth task of an earlier round is sent again once it has
 * probably finished, and a few copies are pushed straight onto the pending list as an outside
 * producer would. It counts every answer per id; anything but 202, 200-duplicate (and 503,
 * which is resent with the same ids) is recorded as unexpected.
 */
final class LoadProducer {

    private static final int SINGLES_PER_ROUND = 6;
    private static final int LATE_ROUNDS_BACK = 3;

    private final HttpApi api;
    private final RedisProbe redis;
    private final TaskPlan plan;
    private final Figures figures;
    private final ObjectMapper mapper = new ObjectMapper();
    private final ExecutorService senders = Executors.newFixedThreadPool(4);
    private final Map<String, AtomicInteger> accepted = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> answered = new ConcurrentHashMap<>();
    private final Queue<String> unexpected = new ConcurrentLinkedQueue<>();

    LoadProducer(HttpApi api, RedisProbe redis, TaskPlan plan, Figures figures) {
        this.api = api;
        this.redis = redis;
        this.plan = plan;
        this.figures = figures;
    }

    void openAccountsAndCampaigns() {
        for (String account : plan.accounts()) {
            expectCreated(api.put("/api/accounts/" + account, Map.of("currency", "EUR",
                    "balance", java.math.BigDecimal.valueOf(TaskPlan.OPENING_BALANCE_MINOR, 2).toPlainString())), account);
        }
        for (String campaign : plan.campaigns()) {
            expectCreated(api.put("/api/campaigns/" + campaign, Map.of("stock", TaskPlan.CAMPAIGN_STOCK,
                    "value", "5.00", "currency", "EUR")), campaign);
        }
    }

    private static void expectCreated(HttpApi.Answer answer, String id) {
        if (answer.status() != 201) {
            throw new AssertionError("creating " + id + " answered " + answer.status() + ": " + answer.body());
        }
    }

    /** Sends everything in {@code rounds} rounds, one every {@code every} (or slower, when the API is). */
    void run(int rounds, Duration every) throws Exception {
        List<TaskPlan.Planned> tasks = plan.tasks();
        int size = (tasks.size() + rounds - 1) / rounds;
        List<List<TaskPlan.Planned>> slices = new ArrayList<>();
        for (int from = 0; from < tasks.size(); from += size) {
            slices.add(tasks.subList(from, Math.min(tasks.size(), from + size)));
        }
        for (int r = 0; r < slices.size(); r++) {
            long started = System.nanoTime();
            List<TaskPlan.Planned> slice = slices.get(r);
            sendWithConcurrentDuplicates(slice);
            if (r >= LATE_ROUNDS_BACK) {
                List<TaskPlan.Planned> earlier = slices.get(r - LATE_ROUNDS_BACK);
                sendLateDuplicates(every(earlier, 4, 1));
                pushRaw(earlier.get(0));
            }
            pushRaw(slice.get(slice.size() - 1));
            long left = every.toNanos() - (System.nanoTime() - started);
            if (left > 0) {
                Thread.sleep(left / 1_000_000);
            }
        }
    }

    private void sendWithConcurrentDuplicates(List<TaskPlan.Planned> slice) throws Exception {
        List<TaskPlan.Planned> duplicates = every(slice, 2, 0);
        List<Callable<Object>> sends = new ArrayList<>();
        int singles = Math.min(SINGLES_PER_ROUND, duplicates.size());
        sends.add(() -> sendBatch(slice));
        sends.add(() -> sendBatch(duplicates.subList(singles, duplicates.size())));
        for (TaskPlan.Planned single : duplicates.subList(0, singles)) {
            sends.add(() -> sendSingle(single));
        }
        figures.add("submissions: first copies", slice.size());
        figures.add("submissions: concurrent duplicates", duplicates.size());
        for (Future<Object> send : senders.invokeAll(sends)) {
            send.get();
        }
    }

    private void sendLateDuplicates(List<TaskPlan.Planned> late) {
        figures.add("submissions: duplicates after the first copy", late.size());
        for (JsonNode result : sendBatch(late)) {
            if (result.path("duplicate").asBoolean() && "succeeded".equals(result.path("status").asText())) {
                figures.add("  of them answered after it had succeeded", 1);
            }
        }
    }

    /** Sends the same copies again after the run: each must be known, succeeded, and not run again. */
    List<JsonNode> resendAfterCompletion(List<TaskPlan.Planned> tasks) {
        figures.add("submissions: duplicates after quiescence", tasks.size());
        return sendBatch(tasks);
    }

    private List<JsonNode> sendBatch(List<TaskPlan.Planned> tasks) {
        if (tasks.isEmpty()) {
            return List.of();
        }
        HttpApi.Answer answer = api.post("/api/tasks/batch", Map.of("tasks", tasks.stream().map(TaskPlan.Planned::request)
                .toList()));
        if (answer.status() != 200) {
            unexpected.add("batch answered " + answer.status() + ": " + answer.body());
            return List.of();
        }
        List<JsonNode> results = new ArrayList<>();
        answer.body().path("results").forEach(results::add);
        for (int i = 0; i < results.size(); i++) {
            count(tasks.get(i).id(), results.get(i).path("code").asInt(), results.get(i));
        }
        return results;
    }

    private HttpApi.Answer sendSingle(TaskPlan.Planned task) {
        HttpApi.Answer answer = api.post("/api/tasks", task.request());
        count(task.id(), answer.status(), answer.body());
        return answer;
    }

    private void count(String id, int code, JsonNode body) {
        answered.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        if (code == 202) {
            accepted.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
            figures.add("answers: 202 accepted", 1);
        } else if (code == 200 && body.path("duplicate").asBoolean()) {
            figures.add("answers: 200 duplicate (rejected at enqueue)", 1);
        } else {
            unexpected.add("task " + id + " answered " + code + ": " + body);
        }
    }

    /** LPUSH of a copy straight onto the queue's pending list, as a producer in another language may do. */
    private void pushRaw(TaskPlan.Planned task) {
        try {
            String envelope = mapper.writeValueAsString(Map.of("id", task.id(), "type", task.type(),
                    "payload", task.payload(), "attempt", 0, "enqueuedAt", System.currentTimeMillis()));
            redis.lpush(RedisProbe.key(task.type(), "pending"), envelope);
            figures.add("raw LPUSH duplicates", 1);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<TaskPlan.Planned> every(List<TaskPlan.Planned> tasks, int step, int offset) {
        List<TaskPlan.Planned> picked = new ArrayList<>();
        for (int i = offset; i < tasks.size(); i += step) {
            picked.add(tasks.get(i));
        }
        return picked;
    }

    /** 202 answers per id: more than one would mean an id was enqueued twice. */
    Map<String, AtomicInteger> accepted() {
        return accepted;
    }

    /**
     * What the answers show went wrong: an answer that is none of the expected ones, an id
     * accepted (202) more than once (enqueued twice), a planned id never answered at all.
     */
    List<String> violations() {
        List<String> problems = new ArrayList<>(unexpected);
        accepted.forEach((id, n) -> {
            if (n.get() > 1) {
                problems.add("task " + id + " was accepted (202) " + n + " times");
            }
        });
        plan.tasks().stream().filter(t -> !answered.containsKey(t.id()))
                .forEach(t -> problems.add("task " + t.id() + " was never answered"));
        return problems;
    }

    void close() {
        senders.shutdownNow();
    }
}
