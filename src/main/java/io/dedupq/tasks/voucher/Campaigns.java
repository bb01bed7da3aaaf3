package io.dedupq.tasks.voucher;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqJson;
import io.dedupq.queue.KeyedCommand;
import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisGuard;
import io.dedupq.queue.RedisKeys;
import io.dedupq.tasks.CreateScript;
import io.dedupq.tasks.Examples;
import io.dedupq.tasks.MoneyAmount;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.faulttolerance.api.ApplyGuard;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Voucher campaigns: stock, and every code handed out with the task that issued it (issue.lua). */
@IfBuildProperty(name = Examples.ENABLED, stringValue = "true")
@ApplicationScoped
public class Campaigns {

    private static final char[] ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".toCharArray();
    private static final int CODE_LENGTH = 12;
    private static final int CODE_TRIES = 5;

    /** What issue.lua answered; {@code code} is set when a voucher was issued. */
    public record Issue(Outcome outcome, String code) {
    }

    public enum Outcome { ISSUED, ALREADY_ISSUED, STALE, NO_CAMPAIGN, OUT_OF_STOCK }

    @RegisterForReflection
    public record Voucher(String code, String taskId, String customerId) {
    }

    @RegisterForReflection
    public record Campaign(String id, long stock, BigDecimal value, String currency, List<Voucher> vouchers) {
    }

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final ObjectMapper mapper;
    private final SecureRandom random = new SecureRandom();

    public Campaigns(RedisCalls redis, RedisKeys keys, @DedupqJson ObjectMapper mapper) {
        this.redis = redis;
        this.keys = keys;
        this.mapper = mapper;
    }

    /** False when a campaign with this id exists already (it is left as it is). */
    @ApplyGuard(RedisGuard.NAME)
    public boolean open(String id, long stock, BigDecimal value, String currency) {
        Map<String, String> fields = Map.of("stock", Long.toString(stock),
                "value", Long.toString(MoneyAmount.toMinorUnits(value)), "currency", currency);
        return CreateScript.created(redis.script(new CreateScript.Call(keys.campaign(id), fields).script()));
    }

    /** Issues one code to the task, or tells why not; a random code that is taken is drawn again. */
    public Issue issue(String campaignId, String taskId, String customerId, long fencingToken) {
        for (int i = 0; i < CODE_TRIES; i++) {
            IssueScript.Reply reply = IssueScript.Reply.read(redis.script(
                    new IssueScript.Call(campaignId, taskId, customerId, newCode(), fencingToken).script(keys)));
            switch (reply.answer()) {
                case ISSUED:
                    return new Issue(Outcome.ISSUED, reply.code());
                case ALREADY_ISSUED:
                    return new Issue(Outcome.ALREADY_ISSUED, null);
                case STALE:
                    return new Issue(Outcome.STALE, null);
                case NO_CAMPAIGN:
                    return new Issue(Outcome.NO_CAMPAIGN, null);
                case OUT_OF_STOCK:
                    return new Issue(Outcome.OUT_OF_STOCK, null);
                case CODE_TAKEN:
                    continue;
            }
        }
        throw new IllegalStateException("no free voucher code after " + CODE_TRIES + " draws");
    }

    /** The campaign with its newest {@code limit} vouchers, newest first. */
    @ApplyGuard(RedisGuard.NAME)
    public Optional<Campaign> find(String id, int limit) {
        List<Response> replies = redis.batch(List.of(
                KeyedCommand.of(Command.HMGET, keys.campaign(id)).arg("stock").arg("value").arg("currency"),
                KeyedCommand.of(Command.LRANGE, keys.campaignVouchers(id)).arg(0).arg(limit - 1)));
        Response campaign = replies.get(0);
        if (campaign.get(0) == null) {
            return Optional.empty();
        }
        List<Voucher> vouchers = new ArrayList<>();
        for (Response raw : replies.get(1)) {
            try {
                JsonNode v = mapper.readTree(raw.toString());
                vouchers.add(new Voucher(v.get("code").asText(), v.get("taskId").asText(), v.get("customerId").asText()));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("unreadable voucher entry", e);
            }
        }
        return Optional.of(new Campaign(id, campaign.get(0).toLong(), MoneyAmount.fromMinorUnits(campaign.get(1).toLong()),
                campaign.get(2).toString(), vouchers));
    }

    private String newCode() {
        char[] code = new char[CODE_LENGTH];
        for (int i = 0; i < code.length; i++) {
            code[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return new String(code);
    }
}
