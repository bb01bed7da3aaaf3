package io.dedupq.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqConfig;
import io.dedupq.config.DedupqJson;
import io.dedupq.lock.OncePerTick;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.smallrye.faulttolerance.api.ApplyGuard;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.logging.Logger;

/**
 * The example once-per-tick job: on every fire time of {@code dedupq.jobs.rollup-cron} one pod
 * (whichever takes the tick's lock first) adds the counts of every queue to a capped history,
 * ordered by fire time, that dashboards can plot.
 */
@ApplicationScoped
public class StatsRollup {

    private static final Logger LOG = Logger.getLogger(StatsRollup.class);

    /** The counts of every queue at one fire time (epoch ms). */
    @RegisterForReflection
    public record Rollup(long at, List<QueueStats> queues) {
    }

    private final QueueStore store;
    private final RedisCalls redis;
    private final RedisKeys keys;
    private final ObjectMapper mapper;
    private final DedupqConfig config;

    public StatsRollup(QueueStore store, RedisCalls redis, RedisKeys keys, @DedupqJson ObjectMapper mapper, DedupqConfig config) {
        this.store = store;
        this.redis = redis;
        this.keys = keys;
        this.mapper = mapper;
        this.config = config;
    }

    @Scheduled(identity = "stats-rollup", cron = "${dedupq.jobs.rollup-cron}", skipExecutionIf = OncePerTick.class)
    void rollUp(ScheduledExecution execution) throws JsonProcessingException {
        try {
            long at = execution.getScheduledFireTime().toEpochMilli();
            String entry = mapper.writeValueAsString(new Rollup(at, store.stats()));
            redis.batch(List.of(KeyedCommand.of(Command.ZADD, keys.rollups()).arg(at).arg(entry),
                    KeyedCommand.of(Command.ZREMRANGEBYRANK, keys.rollups()).arg(0).arg(-config.jobs().rollupKeep() - 1)));
        } catch (StoreUnavailableException | FaultToleranceException e) {
            // a missed roll-up is a gap in the history, not worth a stack trace on every tick
            LOG.warnf("stats roll-up of %s skipped: %s", execution.getScheduledFireTime(), e.getMessage());
        }
    }

    /** The newest {@code limit} roll-ups, newest first. */
    @ApplyGuard(RedisGuard.NAME)
    public List<JsonNode> recent(int limit) throws JsonProcessingException {
        List<JsonNode> entries = new ArrayList<>();
        for (Response raw : redis.send(KeyedCommand.of(Command.ZREVRANGE, keys.rollups()).arg(0).arg(limit - 1))) {
            entries.add(mapper.readTree(raw.toString()));
        }
        return entries;
    }
}
