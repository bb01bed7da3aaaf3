package io.dedupq.fault;

import static io.dedupq.fault.RedisProbe.key;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The final word on a run: waits until nothing is queued or in flight, then checks the effects
 * through the accounts and campaigns endpoints and the leftovers in Redis. It collects every
 * violation instead of stopping at the first, so one failed run shows all that went wrong.
 */
final class Auditor {

    private static final List<String> QUEUES = List.of("payment", "voucher");

    private final HttpApi api;
    private final RedisProbe redis;
    private final TaskPlan plan;
    private final Figures figures;
    private final boolean hashesExpire;

    Auditor(HttpApi api, RedisProbe redis, TaskPlan plan, Figures figures) {
        this(api, redis, plan, figures, false);
    }

    /**
     * {@code hashesExpire}: the run is longer than the result retention (at most the dedup window),
     * so the hash of a task finished early is gone by the end. A missing hash is then no violation by itself (a hash gets its
     * expiry only when the task finishes); the ledgers and vouchers still prove each task ran once.
     */
    Auditor(HttpApi api, RedisProbe redis, TaskPlan plan, Figures figures, boolean hashesExpire) {
        this.api = api;
        this.redis = redis;
        this.plan = plan;
        this.figures = figures;
        this.hashesExpire = hashesExpire;
    }

    /** Until pending, delayed and every processing list are empty and every planned task is terminal. */
    void awaitQuiescence(Duration timeout) {
        FaultInjector.awaitCondition("quiescence (queues empty, every task terminal)", timeout,
                () -> QUEUES.stream().allMatch(q -> redis.llen(key(q, "pending")) == 0
                        && redis.zcard(key(q, "delayed")) == 0)
                        && nonEmptyProcessingLists().isEmpty()
                        && statuses().values().stream().allMatch(this::finished));
    }

    private boolean finished(String status) {
        return terminal(status) || (status == null && hashesExpire);
    }

    List<String> violations() {
        List<String> problems = new ArrayList<>();
        checkStatuses(problems);
        checkAccounts(problems);
        checkCampaigns(problems);
        checkLeftovers(problems);
        return problems;
    }

    private void checkStatuses(List<String> problems) {
        Map<String, Integer> byStatus = new TreeMap<>();
        List<String> notSucceeded = new ArrayList<>();
        statuses().forEach((id, status) -> {
            byStatus.merge(String.valueOf(status), 1, Integer::sum);
            if (!"succeeded".equals(status) && !(status == null && hashesExpire)) {
                notSucceeded.add(id + "=" + status);
            }
        });
        figures.set("unique tasks that succeeded", byStatus.getOrDefault("succeeded", 0));
        if (hashesExpire) {
            figures.set("unique tasks whose hash expired with the dedup window", byStatus.getOrDefault("null", 0));
        }
        if (!notSucceeded.isEmpty()) {
            problems.add(notSucceeded.size() + " tasks did not succeed " + byStatus + ", e.g. "
                    + notSucceeded.subList(0, Math.min(10, notSucceeded.size())));
        }
    }

    /** Each payment debited exactly once: one ledger entry per task, balance = opening - sum. */
    private void checkAccounts(List<String> problems) {
        Map<String, List<TaskPlan.Planned>> owners = plan.byOwner();
        long entries = 0;
        for (String account : plan.accounts()) {
            JsonNode body = api.read("/api/accounts/" + account + "?limit=10000");
            Map<String, Long> expected = new HashMap<>();
            owners.get(account).forEach(t -> expected.put(t.id(), t.amountMinor()));
            Map<String, Integer> seen = new HashMap<>();
            for (JsonNode entry : body.path("ledger")) {
                String task = entry.path("taskId").asText();
                seen.merge(task, 1, Integer::sum);
                if (!expected.containsKey(task)) {
                    problems.add("account " + account + " has a ledger entry for unexpected task " + task);
                } else if (minor(entry.path("amount")) != expected.get(task)) {
                    problems.add("account " + account + " debited " + entry.path("amount") + " for " + task);
                }
                entries++;
            }
            exactlyOnce("payment", "debited", account, expected.keySet(), seen, problems);
            long sum = expected.values().stream().mapToLong(Long::longValue).sum();
            long balance = minor(body.path("balance"));
            if (balance != TaskPlan.OPENING_BALANCE_MINOR - sum) {
                problems.add("account " + account + " balance " + balance + " minor units, expected "
                        + (TaskPlan.OPENING_BALANCE_MINOR - sum));
            }
        }
        figures.set("ledger entries (one per unique payment expected)", entries);
    }

    /** Each voucher issued exactly once, stock down by as many, no code handed out twice. */
    private void checkCampaigns(List<String> problems) {
        Map<String, List<TaskPlan.Planned>> owners = plan.byOwner();
        Set<String> codes = new HashSet<>();
        long issued = 0;
        for (String campaign : plan.campaigns()) {
            JsonNode body = api.read("/api/campaigns/" + campaign + "?limit=10000");
            Set<String> expected = new HashSet<>();
            owners.get(campaign).forEach(t -> expected.add(t.id()));
            Map<String, Integer> seen = new HashMap<>();
            for (JsonNode voucher : body.path("vouchers")) {
                String task = voucher.path("taskId").asText();
                seen.merge(task, 1, Integer::sum);
                if (!expected.contains(task)) {
                    problems.add("campaign " + campaign + " issued a voucher for unexpected task " + task);
                }
                if (!codes.add(voucher.path("code").asText())) {
                    problems.add("code " + voucher.path("code").asText() + " issued twice (task " + task + ")");
                }
                issued++;
            }
            exactlyOnce("voucher task", "issued", campaign, expected, seen, problems);
            long stock = body.path("stock").asLong();
            if (stock != TaskPlan.CAMPAIGN_STOCK - expected.size()) {
                problems.add("campaign " + campaign + " stock " + stock + ", expected "
                        + (TaskPlan.CAMPAIGN_STOCK - expected.size()));
            }
        }
        figures.set("vouchers issued (one per unique voucher task expected)", issued);
    }

    /** Every expected task seen once on {@code owner}: none twice, none missing. */
    private static void exactlyOnce(String what, String done, String owner, Set<String> expected,
            Map<String, Integer> seen, List<String> problems) {
        seen.forEach((task, n) -> {
            if (n > 1) {
                problems.add(what + " " + task + " " + done + " " + n + " times on " + owner);
            }
        });
        expected.stream().filter(t -> !seen.containsKey(t))
                .forEach(t -> problems.add(what + " " + t + " never " + done + " on " + owner));
    }

    /** Nothing in flight, queued, locked or dead-lettered once the run is over. */
    private void checkLeftovers(List<String> problems) {
        nonEmptyProcessingLists().forEach(k -> problems.add("processing list not empty: " + k));
        redis.keys(RedisProbe.ANY_QUEUE + "lock:*").forEach(k -> problems.add("lock left behind: " + k));
        for (String queue : QUEUES) {
            for (String list : List.of("pending", "dead")) {
                long n = redis.llen(key(queue, list));
                if (n != 0) {
                    problems.add(key(queue, list) + " holds " + n + " entries");
                }
            }
            long delayed = redis.zcard(key(queue, "delayed"));
            if (delayed != 0) {
                problems.add(key(queue, "delayed") + " holds " + delayed + " entries");
            }
        }
    }

    private List<String> nonEmptyProcessingLists() {
        return redis.keys(RedisProbe.ANY_QUEUE + "processing:*").stream().filter(k -> redis.llen(k) > 0).toList();
    }

    /** Status of every planned task from its hash (null when the hash is missing). */
    private Map<String, String> statuses() {
        List<String> ids = plan.tasks().stream().map(TaskPlan.Planned::id).toList();
        List<String> keys = plan.tasks().stream().map(t -> key(t.type(), "task:" + t.id())).toList();
        List<String> values = redis.hgetAll(keys, "status");
        Map<String, String> statuses = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            statuses.put(ids.get(i), values.get(i));
        }
        return statuses;
    }

    private static boolean terminal(String status) {
        return "succeeded".equals(status) || "failed".equals(status) || "dead".equals(status);
    }

    private static long minor(JsonNode amount) {
        return new BigDecimal(amount.asText()).movePointRight(2).longValueExact();
    }
}
