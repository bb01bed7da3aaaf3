package io.dedupq.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;

import io.dedupq.support.OperatorKeyResource;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's files and the data it reads, served by the packaged application (the native
 * binary under -Dnative, where they must have been included as resources), in the prod profile
 * with security on: the data calls carry the operator key of {@link OperatorKeyResource}.
 */
@QuarkusIntegrationTest
@WithTestResource(RedisTestResource.class)
@WithTestResource(OperatorKeyResource.class)
class DashboardPageIT {

    @Test
    void rootLeadsToTheDashboardAndItsFilesAreServed() {
        given().redirects().follow(false).get("/").then().statusCode(303)
                .header("Location", endsWith("/dashboard/"));
        given().get("/dashboard/").then().statusCode(200).contentType(containsString("text/html"))
                .body(containsString("dedupq dashboard"));
        given().get("/dashboard/dashboard.js").then().statusCode(200).body(containsString("/api/workers"));
        given().get("/dashboard/dashboard.css").then().statusCode(200);
    }

    @Test
    void aQueuesTasksAreListedForTheTasksCard() {
        given().get("/dashboard/dashboard.js").then().statusCode(200).body(containsString("/tasks?state="));
        given().get("/api/queues/payment/tasks?state=running").then().statusCode(200)
                .body("queue", equalTo("payment")).body("state", equalTo("running")).body("total", equalTo(0));
    }

    @Test
    void workersListTheirHeartbeats() {
        given().get("/api/workers").then().statusCode(200)
                .body("$", everyItem(hasKey("ageMs")))
                .body("alive", hasItem(true));
    }
}
