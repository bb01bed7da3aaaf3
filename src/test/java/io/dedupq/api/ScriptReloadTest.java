package io.dedupq.api;

import static io.dedupq.support.Api.uniqueId;
import static io.dedupq.support.Partitions.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.RedisTestResource;
import io.dedupq.worker.PromoteScript;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * After Redis lost its script cache (restart, SCRIPT FLUSH) a pipelined script call loads the
 * script (EVAL) and succeeds. No worker runs in this profile, so nothing else reloads them first:
 * an API-only pod depends on exactly this path.
 */
@QuarkusTest
@TestProfile(PodRolesTest.NoRoles.class)
@WithTestResource(RedisTestResource.class)
class ScriptReloadTest {

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    @Test
    void pipelinedScriptCallReloadsAFlushedScriptCache() {
        String queue = uniqueId("reload");
        redis.send(Request.cmd(Command.SCRIPT).arg("FLUSH"));

        List<io.vertx.mutiny.redis.client.Response> replies = redis.scripts(List.of(
                new PromoteScript.Call(whole(queue), 10).script(keys)));

        assertEquals(0, replies.get(0).toLong(), "nothing was due, and the call went through");
    }
}
