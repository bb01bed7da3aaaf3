package io.dedupq.tasks.noop;

import io.dedupq.handler.ExecutionContext;
import io.dedupq.handler.TaskHandler;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.StoreUnavailableException;
import io.dedupq.worker.GroupingLane;
import io.quarkus.arc.lookup.LookupIfProperty;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Benchmark aid, off unless {@code dedupq.bench.noop-handler=true}: a handler that does no work
 * except leaving evidence that it ran. The task id goes to {@code {p:queue}:bench-runs}, the
 * list the benchmark counts to prove one execution per task id. Ids go out in groups (one
 * RPUSH per group, sent by a lane per queue), so the evidence is not a Redis round trip of its
 * own per task; the benchmark waits until the list has caught up.
 */
@ApplicationScoped
@LookupIfProperty(name = "dedupq.bench.noop-handler", stringValue = "true")
public class NoopHandler implements TaskHandler<NoopPayload> {

    private static final Logger LOG = Logger.getLogger(NoopHandler.class);
    private static final int MAX_GROUP = 1000;

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final Map<String, GroupingLane<String>> runs = new ConcurrentHashMap<>();

    public NoopHandler(RedisCalls redis, RedisKeys keys) {
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
        runs.computeIfAbsent(ctx.queue(), this::lane).add(ctx.taskId());
        return null;
    }

    @PreDestroy
    void stop() {
        runs.values().forEach(GroupingLane::stop);
    }

    private GroupingLane<String> lane(String queue) {
        return new GroupingLane<>("dedupq-" + queue + "-bench-runs", MAX_GROUP, ids -> record(queue, ids));
    }

    private void record(String queue, List<String> ids) {
        Request push = Request.cmd(Command.RPUSH).arg(keys.benchRuns(queue));
        ids.forEach(push::arg);
        try {
            redis.send(push);
        } catch (StoreUnavailableException e) {
            LOG.warnf("%d runs not recorded: %s", ids.size(), e.getMessage());
        }
    }
}
