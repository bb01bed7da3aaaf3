package io.dedupq.queue;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Says at start which partitions keep another dedup bucket count than this pod's
 * {@code dedupq.queues.<q>.dedup-buckets}: the count stored in {@code {p:Q}:records} by the first
 * script that needed it is the one every pod uses, so a changed setting has no effect there
 * (docs/redis-keys.md, "Dedup records"). Read beside the start, not on its path; a Redis that does
 * not answer is readiness's business.
 */
@ApplicationScoped
public class RecordsLayoutCheck {

    private static final Logger LOG = Logger.getLogger(RecordsLayoutCheck.class);

    /** A partition whose stored bucket count is not this pod's setting. */
    public record Mismatch(Partition partition, int stored, int configured) {
    }

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;

    public RecordsLayoutCheck(RedisCalls redis, RedisKeys keys, QueuePartitions partitions) {
        this.redis = redis;
        this.keys = keys;
        this.partitions = partitions;
    }

    void onStart(@Observes StartupEvent event) {
        mismatches().subscribe().with(found -> found.forEach(m -> LOG.warnf(
                "partition %s keeps its dedup records in %d buckets, not in the %d of dedupq.queues.%s.dedup-buckets: "
                        + "the stored count is used (docs/redis-keys.md, Dedup records)",
                m.partition(), m.stored(), m.configured(), m.partition().queue())),
                failure -> LOG.debugf("dedup records layouts not read at start: %s", failure.getMessage()));
    }

    /** The partitions of the queues this pod knows whose stored bucket count differs from the setting. */
    public Uni<List<Mismatch>> mismatches() {
        List<Partition> all = partitions.all();
        if (all.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        // one pipeline through the gateway (a write per hash slot, its reply timeout)
        List<KeyedCommand> reads = all.stream()
                .map(partition -> KeyedCommand.of(Command.HGET, keys.records(partition)).arg("buckets")).toList();
        return redis.batchAsync(reads).map(stored -> {
            List<Mismatch> found = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                Partition partition = all.get(i);
                Response buckets = stored.get(i);
                int configured = partitions.settings(partition).dedupBuckets();
                if (buckets != null && buckets.toInteger() != configured) {
                    found.add(new Mismatch(partition, buckets.toInteger(), configured));
                }
            }
            return found;
        });
    }
}
