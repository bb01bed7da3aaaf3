package io.dedupq.tasks.payment;

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
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Accounts and their ledger: the auditable resource that payments write to (debit.lua). */
@IfBuildProperty(name = Examples.ENABLED, stringValue = "true")
@ApplicationScoped
public class Ledger {

    /** What debit.lua answered. */
    public enum Debit { DEBITED, ALREADY_DEBITED, STALE, NO_ACCOUNT, CURRENCY_MISMATCH, INSUFFICIENT_FUNDS }

    @RegisterForReflection
    public record Entry(String taskId, BigDecimal amount, long fencingToken, long at) {
    }

    @RegisterForReflection
    public record Account(String id, String currency, BigDecimal balance, List<Entry> ledger) {
    }

    private final RedisCalls redis;
    private final RedisKeys keys;
    private final ObjectMapper mapper;
    private final Clock clock;

    public Ledger(RedisCalls redis, RedisKeys keys, @DedupqJson ObjectMapper mapper, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** False when an account with this id exists already (it is left as it is). */
    @ApplyGuard(RedisGuard.NAME)
    public boolean open(String id, String currency, BigDecimal balance) {
        return CreateScript.created(redis.script(new CreateScript.Call(keys.account(id),
                Map.of("currency", currency, "balance", Long.toString(MoneyAmount.toMinorUnits(balance)))).script()));
    }

    public Debit debit(String accountId, String taskId, BigDecimal amount, String currency, long fencingToken) {
        return DebitScript.read(redis.script(new DebitScript.Call(accountId, taskId, MoneyAmount.toMinorUnits(amount),
                currency, fencingToken, clock.millis()).script(keys)));
    }

    /** The account with its newest {@code limit} ledger entries, newest first. */
    @ApplyGuard(RedisGuard.NAME)
    public Optional<Account> find(String id, int limit) {
        List<Response> replies = redis.batch(List.of(
                KeyedCommand.of(Command.HMGET, keys.account(id)).arg("currency").arg("balance"),
                KeyedCommand.of(Command.LRANGE, keys.accountLedger(id)).arg(0).arg(limit - 1)));
        Response account = replies.get(0);
        if (account.get(0) == null) {
            return Optional.empty();
        }
        List<Entry> entries = new ArrayList<>();
        for (Response raw : replies.get(1)) {
            JsonNode e = read(raw.toString());
            entries.add(new Entry(e.get("taskId").asText(), MoneyAmount.fromMinorUnits(e.get("amount").asLong()),
                    e.get("fencingToken").asLong(), e.get("at").asLong()));
        }
        return Optional.of(new Account(id, account.get(0).toString(),
                MoneyAmount.fromMinorUnits(account.get(1).toLong()), entries));
    }

    private JsonNode read(String json) {
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable ledger entry", e);
        }
    }
}
