package io.dedupq.tasks.noop;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.dedupq.queue.RedisKeys;
import io.quarkus.arc.lookup.LookupIfProperty;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Benchmark aid, off unless {@code dedupq.bench.noop-handler=true}: a handler that does no work
 * except leaving evidence that it ran. It appends the task id to {@code {p:noop}:bench-runs}
 * without waiting for the reply (so the record costs the measured worker almost nothing), and
 * the benchmark counts the ids there to prove one execution per task id.
 */
@ApplicationScoped
@LookupIfProperty(name = "dedupq.bench.noop-handler", stringValue = "true")
public class NoopHandler implements TaskHandler<NoopPayload> {

    private static final Logger LOG = Logger.getLogger(NoopHandler.class);

    private final Redis redis;
    private final RedisKeys keys;

    public NoopHandler(Redis redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    @Override
    public String type() {
        return "noop";
    }

    @Override
    public Class<NoopPayload> payloadType() {
        return NoopPayload.class;
    }

    @Override
    public Object handle(NoopPayload payload, ExecutionContext ctx) {
        redis.send(Request.cmd(Command.RPUSH).arg(keys.benchRuns(ctx.queue())).arg(ctx.taskId()))
                .subscribe().with(ok -> { }, e -> LOG.warnf("run of %s not recorded: %s", ctx.taskId(), e.getMessage()));
        return null;
    }
}
