package io.dedupq.health;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.dedupq.config.RedisProcess;
import io.dedupq.queue.LuaScript;
import io.dedupq.queue.RedisCalls;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Readiness follows Redis: DOWN while it is stopped or frozen, UP again once it answers, scripts loaded. */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class ReadinessTest {

    private final RedisProcess redis = RedisTestResource.redis();

    @Inject
    RedisCalls calls;

    @AfterEach
    void redisRunsAgain() {
        RedisTestResource.runAgain();
    }

    @Test
    void readyWhileRedisAnswersDownWhileItIsStoppedUpWhenItIsBack() {
        awaitReadiness(200, "UP");
        given().get("/q/health/ready").then().body("checks.find { it.name == 'redis' }.data.scripts",
                equalTo(LuaScript.values().length));

        redis.stop();
        awaitReadiness(503, "DOWN");
        given().get("/q/health/ready").then().body("checks.name", hasItem("redis"));

        redis.start();
        awaitReadiness(200, "UP");
    }

    @Test
    void downWhileRedisIsFrozenUpWhenItThaws() {
        awaitReadiness(200, "UP");
        try {
            redis.pause();
            awaitReadiness(503, "DOWN");
        } finally {
            redis.resume();
        }
        awaitReadiness(200, "UP");
    }

    @Test
    void scriptsFlushedFromRedisAreLoadedAgainByTheCheck() {
        calls.send(Request.cmd(Command.SCRIPT).arg("FLUSH"));

        awaitReadiness(200, "UP");

        Request exists = Request.cmd(Command.SCRIPT).arg("EXISTS");
        for (LuaScript script : LuaScript.values()) {
            exists.arg(script.sha());
        }
        calls.send(exists).forEach(loaded -> org.junit.jupiter.api.Assertions.assertEquals(1, loaded.toInteger()));
    }

    private static void awaitReadiness(int code, String status) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> given().get("/q/health/ready").statusCode() == code);
        given().get("/q/health/ready").then().statusCode(code).body("status", equalTo(status));
    }
}
