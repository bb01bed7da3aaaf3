package io.dedupq.tasks.noop;

import io.dedupq.config.DedupqConfig;
import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.dedupq.queue.EventLoopRedis;
import io.dedupq.queue.RedisKeys;
import io.dedupq.worker.LoopLane;
import io.quarkus.arc.lookup.LookupIfProperty;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Benchmark aid, off unless {@code dedupq.bench.noop-handler=true}: a handler that does no work
 * except leaving evidence that it ran. The task id goes to {@code {p:queue}:bench-runs}, the
 * list the benchmark counts to prove one execution per task id. Ids go out in groups (one
 * RPUSH per group, sent by a lane per queue on the worker's event loop), so the evidence is not
 * a Redis round trip of its own per task; the benchmark waits until the list has caught up.
 */
@ApplicationScoped
@LookupIfProperty(name = "dedupq.bench.noop-handler", stringValue = "true")
public class NoopHandler implements TaskHandler<NoopPayload> {

    private static final Logger LOG = Logger.getLogger(NoopHandler.class);
    private static final int MAX_GROUP = 1000;

    private final EventLoopRedis redis;
    private final RedisKeys keys;
    private final boolean blocking;
    private final Map<String, LoopLane<String>> runs = new ConcurrentHashMap<>();

    public NoopHandler(EventLoopRedis redis, RedisKeys keys, DedupqConfig config) {
        this.redis = redis;
        this.keys = keys;
        this.blocking = config.bench().noopBlocking();
    }

    /** It never blocks: it runs on the event loop unless dedupq.bench.noop-blocking asks for handler threads. */
    @Override
    public boolean blocking() {
        return blocking;
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
        runs.computeIfAbsent(ctx.queue(), this::lane).add(ctx.taskId());
        return null;
    }

    private LoopLane<String> lane(String queue) {
        return new LoopLane<>(redis, MAX_GROUP, 1, ids -> record(queue, ids));
    }

    private Future<?> record(String queue, List<String> ids) {
        Request push = Request.cmd(Command.RPUSH).arg(keys.benchRuns(queue));
        ids.forEach(push::arg);
        return redis.batch(List.of(push)).onFailure(e -> LOG.warnf("%d runs not recorded: %s", ids.size(), e.getMessage()));
    }
}
