package io.dedupq.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqJson;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies of tasks found in a partition's lists (pending, delayed, processing), read together with
 * their task hashes in one pipeline: what the task listings of queues and workers show of each.
 */
@ApplicationScoped
public class TaskCopies {

    private static final List<String> FIELDS = List.of("status", "token", "enqueuedAt", "startedAt", "nextAttemptAt",
            "group", "progress", "progressNote", "progressAt");

    /** A copy as found in a list of {@code partition}; {@code worker} owns the processing list it is in, null elsewhere. */
    public record Copy(Partition partition, String worker, String envelope) {
    }

    /** A copy with its envelope parsed and its task's hash (whose fields are null once the hash is gone). */
    public record Read(Copy copy, JsonNode envelope, HashFields task) {

        public String id() {
            return envelope.get("id").textValue();
        }

        /** The attempt the copy runs as; 0 when the envelope has none, as claim.lua reads it. */
        public int attempt() {
            return envelope.path("attempt").asInt(0);
        }

        /** The listing's view of it; {@code since} is what its age counts from, {@code now} Redis's time. */
        public ListedTask listed(String state, Long since, long now) {
            JsonNode type = envelope.get("type");
            JsonNode group = envelope.get("group");
            JsonNode priority = envelope.get("priority");
            return new ListedTask(id(), type != null && type.isTextual() ? type.textValue() : null, state, attempt(),
                    since, since == null ? null : Math.max(0, now - since), task.number("nextAttemptAt"),
                    Priority.of(priority),
                    group != null && group.isTextual() ? group.textValue() : task.text("group"),
                    TaskView.Progress.of(task),
                    copy.worker());
        }

        /** When the task was enqueued: its hash says (enqueue.lua), else its envelope, when it has a time. */
        public Long enqueuedAt() {
            Long stored = task.number("enqueuedAt");
            long carried = envelope.path("enqueuedAt").asLong(0);
            return stored != null ? stored : carried > 0 ? Long.valueOf(carried) : null;
        }

        /** True while the hash says the task runs under a lock token of {@code worker} ({@code <worker>:<fence>}). */
        public boolean runsOn(String worker) {
            String token = task.text("token");
            return "running".equals(task.text("status")) && token != null && token.startsWith(worker + ":")
                    && task.number("startedAt") != null;
        }

        public long startedAt() {
            return task.number("startedAt");
        }

    }

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final ObjectMapper mapper;

    public TaskCopies(RedisCalls redis, RedisKeys keys, @DedupqJson ObjectMapper mapper) {
        this.redis = redis;
        this.keys = keys;
        this.mapper = mapper;
    }

    /**
     * The copies with their task hashes, in the order given; one that is no envelope with an id is
     * left out (claim.lua dead-letters those). One pipelined HMGET per copy. The caller guards the call.
     */
    public List<Read> read(List<Copy> copies) {
        List<Copy> kept = new ArrayList<>(copies.size());
        List<JsonNode> envelopes = new ArrayList<>(copies.size());
        List<KeyedCommand> hashes = new ArrayList<>(copies.size());
        for (Copy copy : copies) {
            JsonNode envelope = parse(copy.envelope());
            JsonNode id = envelope == null ? null : envelope.get("id");
            if (id != null && id.isTextual()) {
                kept.add(copy);
                envelopes.add(envelope);
                hashes.add(HashFields.hmget(keys.task(copy.partition(), id.textValue()), FIELDS));
            }
        }
        if (hashes.isEmpty()) {
            return List.of();
        }
        List<Read> reads = new ArrayList<>(kept.size());
        List<Response> replies = redis.batch(hashes);
        for (int i = 0; i < kept.size(); i++) {
            reads.add(new Read(kept.get(i), envelopes.get(i), new HashFields(FIELDS, replies.get(i))));
        }
        return reads;
    }

    private JsonNode parse(String envelope) {
        try {
            JsonNode node = mapper.readTree(envelope);
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
