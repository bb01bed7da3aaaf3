package io.dedupq.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.config.RedisProcess;
import io.dedupq.support.AppJvm;
import io.dedupq.support.PostgresProcess;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Once toward the database, against real processes: Redis, PostgreSQL and separate JVMs of the
 * example shop (examples/consumer, packaged by the invoker before failsafe runs), whose orders
 * enqueue their charge task through dedupq's outbox and whose charge handler writes through
 * FencedWrites. While orders (a third of them out of stock, so rolled back) go to the pods, pods
 * are killed with SIGKILL in the middle of charge handlers (their transaction open after the
 * charge INSERT) and in the middle of relay batches (pushed to Redis, the outbox DELETE not yet
 * committed), and one pod is frozen (SIGSTOP) mid-charge past its lock TTL until another pod has
 * charged its orders, then let run on. Then: every order row has exactly one charge and its task
 * succeeded, no rolled-back order has a task or a charge, and the outbox is empty.
 * Where each pod is is read from PostgreSQL ({@code pg_stat_activity}, each pod's connections
 * named after it); a trigger of the test holds every relay DELETE 300 ms, so a kill lands
 * between push and delete. Logs are in {@code target/sql-fault/}.
 */
class SqlFaultIT {

    static final Path SHOP = Path.of("target", "it", "examples", "consumer", "target", "quarkus-app", "quarkus-run.jar");
    private static final Path DIR = Path.of("target", "sql-fault");
    private static final int PODS = 3;
    private static final int MIN_ORDERS = 150;
    private static final String QUEUE = "charge";
    private static final String MID_HANDLER = "state = 'idle in transaction' AND query ILIKE 'insert into charges%'";
    private static final String MID_RELAY_BATCH = "state = 'active' AND query LIKE 'DELETE FROM dedupq_outbox%'";

    private static RedisProcess redis;
    private static PostgresProcess postgres;
    private static WorkerFleet fleet;
    private static RedisProbe probe;

    @Test
    void everyCommittedOrderIsChargedOnceAndNoRolledBackOneAtAllThroughKillsAndAPause() throws Exception {
        long started = System.nanoTime();
        // fresh data every run: an earlier run's rows and keys would count in the audit
        Path run = DIR.resolve("run-" + System.currentTimeMillis());
        redis = RedisProcess.start(run.resolve("redis"), "--appendonly", "no");
        postgres = PostgresProcess.start(run.resolve("postgres"));
        probe = new RedisProbe(redis.url());
        fleet = new WorkerFleet(SHOP, redis.url(), DIR, SqlFaultIT::podSettings, Map.of(
                "DATABASE_URL", postgres.jdbcUrl(), "DATABASE_USER", PostgresProcess.USER,
                "SHOP_API_KEY", "sql-fault-shop-key-0123456789"));
        // the first pod creates the tables, the others start beside it
        fleet.startWorker();
        holdRelayDeletes();
        List<AppJvm> others = new ArrayList<>();
        for (int i = 1; i < PODS; i++) {
            others.add(fleet.launchWorker());
        }
        others.forEach(fleet::awaitReady);

        Figures figures = new Figures();
        Map<String, Integer> answers = new ConcurrentHashMap<>();
        AtomicBoolean ordering = new AtomicBoolean(true);
        ExecutorService producers = Executors.newFixedThreadPool(4);
        AtomicInteger next = new AtomicInteger();
        for (int t = 0; t < 4; t++) {
            producers.submit(() -> placeOrders(next, answers, ordering));
        }
        try {
            for (int i = 0; i < 2; i++) {
                killWhere(MID_HANDLER, "kill -9 mid-charge (transaction open after the INSERT)", figures);
                killWhere(MID_RELAY_BATCH, "kill -9 of the relay mid-batch (pushed, DELETE not committed)", figures);
            }
            pauseMidCharge(figures);
            FaultInjector.awaitCondition(MIN_ORDERS + " orders placed", Duration.ofSeconds(30),
                    () -> answers.size() >= MIN_ORDERS);
        } finally {
            ordering.set(false);
            producers.shutdown();
            producers.awaitTermination(30, TimeUnit.SECONDS);
        }

        FaultInjector.awaitCondition("the outbox to empty and every order's task to succeed", Duration.ofSeconds(60),
                () -> outboxRows() == 0 && orderIds().stream().allMatch(id -> "succeeded".equals(taskStatus(id))));
        List<String> problems = audit(answers, figures);
        problems.addAll(fleet.crashes());
        figures.set("seconds, whole test", (System.nanoTime() - started) / 1_000_000_000);
        System.out.println("sql fault test\n" + figures.report());
        assertTrue(problems.isEmpty(), problems.size() + " violations:\n" + String.join("\n", problems));
        assertTrue(figures.get("orders committed (a row)") > 0 && figures.get("orders rolled back (409)") > 0,
                "both kinds of order were placed");
    }

    /** What each shop pod runs with: short lock TTLs, a slow bank, a small pool, its connections named after it. */
    private static Map<String, String> podSettings(String pod) {
        Map<String, String> settings = new LinkedHashMap<>(WorkerFleet.queueSettings(List.of(QUEUE)));
        settings.put("shop.bank-latency", "150ms");
        settings.put("dedupq.sql.relay-lock-ttl", "2s");
        settings.put("dedupq.sql.outbox-batch-size", "50");
        settings.put("quarkus.datasource.jdbc.max-size", "10");
        settings.put("quarkus.datasource.jdbc.additional-jdbc-properties.ApplicationName", pod);
        return settings;
    }

    /** Orders to random live pods until told to stop: two of three of the book (in stock), one of three out of stock. */
    private static void placeOrders(AtomicInteger next, Map<String, Integer> answers, AtomicBoolean ordering) {
        while (ordering.get()) {
            List<AppJvm> pods = fleet.available().stream().filter(p -> p.readyMillis() >= 0).toList();
            if (pods.isEmpty()) {
                AppJvm.sleep(50);
                continue;
            }
            int n = next.getAndIncrement();
            String id = "o-" + n;
            String body = "{\"id\":\"" + id + "\",\"item\":\"" + (n % 3 == 0 ? "rare-stamp" : "book") + "\",\"quantity\":1}";
            try {
                HttpResponse<String> answer = pods.get(ThreadLocalRandom.current().nextInt(pods.size()))
                        .send("POST", "/shop/orders", body);
                answers.put(id, answer.statusCode());
            } catch (IllegalStateException podDied) {
                answers.put(id, -1); // unknown: the audit reads from the database whether it committed
            }
            AppJvm.sleep(10);
        }
    }

    /** SIGKILL to a pod whose connection is at {@code where} in pg_stat_activity, and a replacement. */
    private static void killWhere(String where, String figure, Figures figures) {
        AppJvm victim = reservePodWhere(where);
        victim.kill();
        fleet.release(victim);
        AppJvm replacement = fleet.launchWorker();
        // orders go to ready pods only: one still starting would refuse them
        CompletableFuture.runAsync(() -> fleet.awaitReady(replacement));
        figures.add(figure, 1);
    }

    /**
     * Freezes a pod in the middle of a charge and keeps it frozen past its lock TTL, until other
     * pods have charged the orders it held (or 12 s more: a pod frozen between its record UPDATE
     * and its COMMIT holds that row's lock, and the newer execution waits for it); then it runs
     * on, and its stale executions must write nothing (the audit counts the charges).
     */
    private static void pauseMidCharge(Figures figures) {
        AppJvm paused;
        long pausedAt;
        String processing;
        List<String> held;
        do {
            paused = reservePodWhere(MID_HANDLER);
            paused.pause();
            pausedAt = System.nanoTime();
            AppJvm.sleep(500); // what it sent just before the signal reaches Redis first
            processing = RedisProbe.key(QUEUE, "processing:" + paused.workerId());
            String worker = paused.workerId();
            // the charges it had claimed and not finished: running, and its own
            held = FaultInjector.ids(probe.lrange(processing)).stream()
                    .filter(id -> "running".equals(status(id)) && String.valueOf(field(id, "token")).startsWith(worker + ":"))
                    .toList();
            if (held.isEmpty()) {
                // its charge finished just before the signal: another pod, another time
                paused.resume();
                fleet.release(paused);
            }
        } while (held.isEmpty());
        long deadline = pausedAt + WorkerFleet.LOCK_TTL.plusSeconds(12).toNanos();
        List<String> charges = held;
        while (System.nanoTime() < deadline && (System.nanoTime() - pausedAt < WorkerFleet.LOCK_TTL.toNanos()
                || probe.llen(processing) > 0 || !charges.stream().allMatch(id -> "succeeded".equals(status(id))))) {
            AppJvm.sleep(100);
        }
        figures.add("SIGSTOP mid-charge, frozen past the lock TTL (ms)", (System.nanoTime() - pausedAt) / 1_000_000);
        figures.add("  charge tasks it held", held.size());
        figures.add("  of those charged by other pods while it was frozen",
                held.stream().filter(id -> "succeeded".equals(status(id))).count());
        paused.resume();
        fleet.release(paused);
    }

    private static AppJvm reservePodWhere(String where) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            Set<String> names = new HashSet<>(strings("SELECT application_name FROM pg_stat_activity WHERE " + where));
            Optional<AppJvm> pod = fleet.available().stream().filter(p -> names.contains(p.name())).findFirst();
            if (pod.isPresent() && fleet.reserve(pod.get())) {
                return pod.get();
            }
            AppJvm.sleep(10);
        }
        throw new AssertionError("no pod was at " + where + " within 30 s");
    }

    /** Every relay DELETE waits 300 ms in a trigger: the rows are in Redis by then, their delete not committed. */
    private static void holdRelayDeletes() throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE FUNCTION hold_relay() RETURNS trigger LANGUAGE plpgsql AS "
                    + "$$ BEGIN PERFORM pg_sleep(0.3); RETURN NULL; END $$");
            statement.execute("CREATE TRIGGER hold_relay BEFORE DELETE ON dedupq_outbox "
                    + "FOR EACH STATEMENT EXECUTE FUNCTION hold_relay()");
        }
    }

    private static List<String> audit(Map<String, Integer> answers, Figures figures) {
        List<String> problems = new ArrayList<>();
        Set<String> orders = new HashSet<>(orderIds());
        Map<String, Long> charges = new HashMap<>();
        for (String row : strings("SELECT order_id || ' ' || count(*) FROM charges GROUP BY order_id")) {
            String[] f = row.split(" ");
            charges.put(f[0], Long.parseLong(f[1]));
        }
        for (String id : orders) {
            long n = charges.getOrDefault(id, 0L);
            if (n != 1) {
                problems.add("committed order " + id + " has " + n + " charges");
            }
        }
        for (Map.Entry<String, Integer> answer : answers.entrySet()) {
            String id = answer.getKey();
            boolean committed = orders.contains(id);
            if (answer.getValue() == 201 && !committed) {
                problems.add("order " + id + " answered 201 but has no row");
            }
            if (answer.getValue() == 409 && committed) {
                problems.add("order " + id + " answered 409 but has a row");
            }
            if (!committed && (charges.containsKey(id) || taskStatus(id) != null)) {
                problems.add("rolled-back order " + id + " got its task (" + taskStatus(id) + ") or a charge");
            }
        }
        long outbox = outboxRows();
        if (outbox != 0) {
            problems.add(outbox + " outbox rows left");
        }
        figures.set("orders placed", answers.size());
        figures.set("orders committed (a row)", orders.size());
        figures.set("orders rolled back (409)", answers.values().stream().filter(s -> s == 409).count());
        figures.set("orders without an answer (pod killed)", answers.values().stream().filter(s -> s == -1).count());
        figures.set("charges", charges.values().stream().mapToLong(Long::longValue).sum());
        return problems;
    }

    private static String taskStatus(String orderId) {
        return status("pay-" + orderId);
    }

    private static String status(String taskId) {
        return field(taskId, "status");
    }

    private static String field(String taskId, String field) {
        return probe.hgetAll(List.of(RedisProbe.key(QUEUE, "task:" + taskId)), field).get(0);
    }

    private static List<String> orderIds() {
        return strings("SELECT id FROM orders");
    }

    private static long outboxRows() {
        return Long.parseLong(strings("SELECT count(*) FROM dedupq_outbox").get(0));
    }

    /** The first column of every row, as text. */
    private static List<String> strings(String query) {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(query)) {
            List<String> values = new ArrayList<>();
            while (rows.next()) {
                values.add(rows.getString(1));
            }
            return values;
        } catch (SQLException e) {
            throw new IllegalStateException(query + ": " + e.getMessage(), e);
        }
    }

    @AfterAll
    static void stopEverything() {
        if (fleet != null) {
            fleet.close();
        }
        if (probe != null) {
            probe.close();
        }
        if (postgres != null) {
            postgres.stop();
        }
        if (redis != null) {
            redis.stop();
        }
    }
}
