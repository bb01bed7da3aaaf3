package io.dedupq.sql;

import static io.dedupq.support.Api.awaitStatus;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.dedupq.queue.InvalidTaskException;
import io.dedupq.queue.TaskQueue;
import io.dedupq.queue.TaskSubmission;
import io.dedupq.support.PostgresTestResource;
import io.dedupq.support.SqlProfile;
import io.dedupq.support.SqlSchema;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The transactional outbox against real PostgreSQL and Redis: an order and its task commit or
 * roll back together; the relay moves every committed task to Redis and leaves no row.
 */
@QuarkusTest
@TestProfile(SqlProfile.class)
class TransactionalOutboxTest {

    private static final Logger LOG = Logger.getLogger(TransactionalOutboxTest.class);
    private static final String TYPE = "sql-effect";

    @Inject
    TransactionalTaskQueue outbox;

    @Inject
    TaskQueue tasks;

    @Test
    void committedOrdersGetTheirTasksAndTheOutboxEmpties() throws Exception {
        List<Long> lags = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String id = uniqueId("order-" + i);
            long committed = order(id, true);
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(1)).until(() -> tasks.status(id).isPresent());
            lags.add(System.currentTimeMillis() - committed);
            awaitStatus(id, "succeeded");
            assertEquals(1, SqlSchema.count("orders", id));
            assertEquals(1, SqlSchema.count("effects", id), "the task ran once");
        }
        awaitEmptyOutbox();
        // measured, not asserted (the machine is shared): docs/sql-effects.md quotes it
        LOG.infof("outbox lag at rest, commit to task in Redis, ms, one order at a time: %s (poll interval 50 ms)", lags);
    }

    @Test
    void aRolledBackOrderNeverGetsItsTaskWhileCommittedOnesAllDo() throws Exception {
        List<String> committed = new ArrayList<>();
        List<String> rolledBack = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String id = uniqueId("mixed-" + i);
            order(id, i % 2 == 0);
            (i % 2 == 0 ? committed : rolledBack).add(id);
        }
        // the relay moves rows in commit order: once the last committed task is in Redis, every row before it was read
        for (String id : committed) {
            awaitStatus(id, "succeeded");
        }
        awaitEmptyOutbox();
        for (String id : rolledBack) {
            assertTrue(tasks.status(id).isEmpty(), "rolled-back order " + id + " reached Redis");
            assertEquals(0, SqlSchema.count("orders", id));
        }
        for (String id : committed) {
            assertEquals(1, SqlSchema.count("effects", id));
        }
    }

    @Test
    void aRowAlreadyPushedByARelayThatDiedBeforeDeletingItRunsOnce() throws Exception {
        String id = uniqueId("repushed");
        // the relay's push reached Redis, its delete did not: the row is still there when the next relay reads it
        tasks.enqueue(id, TYPE, Map.of("sleepMs", 0));
        order(id, true);
        awaitStatus(id, "succeeded");
        awaitEmptyOutbox();
        assertEquals(1, SqlSchema.count("effects", id));
    }

    @Test
    void aTaskKeepsItsPriorityGroupAndTimeoutThroughTheOutbox() throws Exception {
        String id = uniqueId("controls");
        // paused, the relayed copy waits in pending where its envelope can be listed
        tasks.pause(TYPE);
        try {
            try (Connection connection = PostgresTestResource.postgres().connect()) {
                connection.setAutoCommit(false);
                outbox.enqueueAllInTransaction(connection, List.of(new TaskSubmission(id, TYPE,
                        JsonNodeFactory.instance.objectNode().put("sleepMs", 10_000)).withPriority(8).withGroup("acct-7")
                        .withTimeout(200L)));
                connection.commit();
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> tasks.status(id).isPresent());
            JsonPath waiting = given().get("/api/queues/" + TYPE + "/tasks?state=waiting").then().statusCode(200)
                    .extract().jsonPath();
            assertEquals(id, waiting.getString("tasks[0].id"));
            assertEquals(8, waiting.getInt("tasks[0].priority"));
            assertEquals("acct-7", waiting.getString("tasks[0].group"));
        } finally {
            tasks.resume(TYPE);
        }
        // the handler sleeps 10 s: only the task's own 200 ms ends its attempt
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertEquals("timed out after 200 ms",
                given().get("/api/tasks/" + id).jsonPath().getString("lastError")));
        assertEquals(0, SqlSchema.count("effects", id));
        tasks.cancel(id);
    }

    @Test
    void anInvalidTaskIsRefusedBeforeAnythingIsWritten() throws Exception {
        try (Connection connection = PostgresTestResource.postgres().connect()) {
            InvalidTaskException refused = assertThrows(InvalidTaskException.class,
                    () -> outbox.enqueueInTransaction(connection, "bad-1", "no-such-type", Map.of()));
            assertEquals("type", refused.errors().get(0).field());
        }
        assertEquals(0, SqlSchema.count("dedupq_outbox", "bad-1"));
    }

    @Test
    void theLagIsInTheQueuesHeaderAndTheGauge() throws Exception {
        order(uniqueId("lag"), true);
        awaitEmptyOutbox();
        given().get("/api/queues").then().statusCode(200).header("Outbox-Lag-Ms", "0");
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("dedupq_outbox_lag_milliseconds"), "the gauge is exported");
    }

    /** Writes an order row and its task in one transaction, then commits or rolls back; returns when. */
    private long order(String id, boolean commit) throws Exception {
        try (Connection connection = PostgresTestResource.postgres().connect()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO orders (task_id) VALUES (?)")) {
                insert.setString(1, id);
                insert.executeUpdate();
            }
            assertEquals(id, outbox.enqueueInTransaction(connection, id, TYPE, Map.of("sleepMs", 0)));
            if (commit) {
                connection.commit();
            } else {
                connection.rollback();
            }
            return System.currentTimeMillis();
        }
    }

    private static void awaitEmptyOutbox() {
        await().alias("the outbox is empty").atMost(Duration.ofSeconds(20)).until(() -> outboxRows() == 0);
    }

    private static long outboxRows() throws Exception {
        try (Connection connection = PostgresTestResource.postgres().connect(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT count(*) FROM dedupq_outbox")) {
            row.next();
            return row.getLong(1);
        }
    }
}
