package io.dedupq.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.faulttolerance.api.ApplyGuard;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.dedupq.config.DedupqJson;

/**
 * Reads a queue's dead list and acts on one record of it: revive (revive.lua) or discard
 * (discard.lua). A record is found through the task hash's {@code deadRecord}; once the hash
 * has expired with the dedup window, by reading the dead list. The scripts check that the
 * record is still there, so two operators acting at once cannot both succeed.
 */
@ApplicationScoped
public class DeadLetterStore {

    private static final int SCAN_PAGE = 500;

    /** What became of a revive or discard. */
    public enum Outcome { DONE, NOT_FOUND, NOT_DEAD, NOT_A_TASK }

    /** {@code status} is the task's status when it was not dead-lettered ({@link Outcome#NOT_DEAD}). */
    public record Result(Outcome outcome, String status) {
    }

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final QueuePartitions partitions;
    private final ObjectMapper mapper;
    private final Clock clock;

    public DeadLetterStore(RedisCalls redis, RedisKeys keys, QueuePartitions partitions, @DedupqJson ObjectMapper mapper,
            Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.partitions = partitions;
        this.mapper = mapper;
        this.clock = clock;
    }

    /**
     * {@code limit} records from index {@code offset} of the dead list (0 is the newest) and its
     * length. A partitioned queue's dead lists are read one after the other, as if joined in
     * partition order (newest first within each).
     */
    @ApplyGuard(RedisGuard.NAME)
    public DeadPage page(String queue, int offset, int limit) {
        List<String> lists = partitions.of(queue).stream().map(keys::dead).toList();
        List<Response> lengths = redis.batch(lists.stream().map(list -> KeyedCommand.of(Command.LLEN, list)).toList());
        List<Long> sizes = lengths.stream().map(Response::toLong).toList();
        List<KeyedCommand> slices = new ArrayList<>();
        for (PageSlices.Slice slice : PageSlices.of(sizes, offset, limit)) {
            slices.add(KeyedCommand.of(Command.LRANGE, lists.get(slice.list())).arg(slice.start()).arg(slice.end()));
        }
        List<DeadLetter> entries = new ArrayList<>();
        for (Response slice : redis.batch(slices)) {
            for (Response raw : slice) {
                entries.add(view(raw.toString()));
            }
        }
        return new DeadPage(queue, sizes.stream().mapToLong(Long::longValue).sum(), offset, limit, entries);
    }

    /** Puts the dead-lettered task back on pending under its id, as attempt 0. */
    @ApplyGuard(RedisGuard.NAME)
    public Result revive(String queue, String id) {
        Partition partition = partitions.forTask(queue, id);
        Optional<String> record = find(partition, id);
        if (record.isEmpty()) {
            return new Result(Outcome.NOT_FOUND, null);
        }
        ObjectNode envelope = envelopeOf(record.get());
        if (envelope == null || !envelope.path("type").isTextual()) {
            return new Result(Outcome.NOT_A_TASK, null);
        }
        envelope.put("attempt", 0);
        ReviveScript.Call call = new ReviveScript.Call(partition, id, record.get(), envelope.toString(),
                envelope.get("type").textValue(), clock.millis(), Priority.of(envelope.get("priority")));
        StatusReply<ReviveScript.Answer> reply = ReviveScript.read(redis.script(call.script(keys)));
        return switch (reply.answer()) {
            case REVIVED -> new Result(Outcome.DONE, reply.status());
            case RECORD_GONE -> new Result(Outcome.NOT_FOUND, null);
            case NOT_DEAD -> new Result(Outcome.NOT_DEAD, reply.status());
        };
    }

    /** Removes the task's record from the dead list; the task stays terminal. */
    @ApplyGuard(RedisGuard.NAME)
    public Result discard(String queue, String id) {
        Partition partition = partitions.forTask(queue, id);
        Optional<String> record = find(partition, id);
        boolean removed = record.isPresent()
                && DiscardScript.removed(redis.script(new DiscardScript.Call(partition, id, record.get()).script(keys)));
        return new Result(removed ? Outcome.DONE : Outcome.NOT_FOUND, null);
    }

    /** The record of {@code id} as it is in its partition's dead list: the hash names it, else the newest match. */
    private Optional<String> find(Partition partition, String id) {
        Response named = redis.send(KeyedCommand.of(Command.HGET, keys.task(partition, id)).arg("deadRecord"));
        if (named != null) {
            return Optional.of(named.toString());
        }
        for (long start = 0; ; start += SCAN_PAGE) {
            Response slice = redis.send(KeyedCommand.of(Command.LRANGE, keys.dead(partition)).arg(start)
                    .arg(start + SCAN_PAGE - 1));
            for (Response raw : slice) {
                if (id.equals(view(raw.toString()).id())) {
                    return Optional.of(raw.toString());
                }
            }
            if (slice.size() < SCAN_PAGE) {
                return Optional.empty();
            }
        }
    }

    private DeadLetter view(String record) {
        JsonNode r = parse(record);
        if (r == null || !r.isObject()) {
            return new DeadLetter(null, null, "unparseable", 0, "not a dead-letter record", null, record);
        }
        String id = text(r.get("id"));
        String status = text(r.get("status"));
        boolean task = id != null && status != null;
        return new DeadLetter(id, text(r.get("type")), task ? status : "unparseable",
                task ? r.path("attempt").asInt() + 1 : 0, text(r.get("error")),
                r.path("failedAt").canConvertToLong() ? r.get("failedAt").asLong() : null, text(r.get("envelope")));
    }

    private ObjectNode envelopeOf(String record) {
        JsonNode r = parse(record);
        JsonNode envelope = r == null ? null : parse(text(r.get("envelope")));
        return envelope instanceof ObjectNode object ? object : null;
    }

    private JsonNode parse(String json) {
        if (json == null) {
            return null;
        }
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
