package io.dedupq.lua;

import static io.dedupq.queue.LuaScript.BEAT;
import static io.dedupq.queue.LuaScript.CANCEL;
import static io.dedupq.queue.LuaScript.CLAIM;
import static io.dedupq.queue.LuaScript.CREATE;
import static io.dedupq.queue.LuaScript.DEBIT;
import static io.dedupq.queue.LuaScript.DISCARD;
import static io.dedupq.queue.LuaScript.ENQUEUE;
import static io.dedupq.queue.LuaScript.EXTEND;
import static io.dedupq.queue.LuaScript.ISSUE;
import static io.dedupq.queue.LuaScript.PROGRESS;
import static io.dedupq.queue.LuaScript.PROMOTE;
import static io.dedupq.queue.LuaScript.RELEASE;
import static io.dedupq.queue.LuaScript.REQUEUE;
import static io.dedupq.queue.LuaScript.REVIVE;
import static java.util.Map.entry;

import io.dedupq.queue.LuaScript;
import java.util.List;
import java.util.Map;

/**
 * The mutations the Lua mutation check applies, one at a time, and the contract test class of
 * each script that must kill them. Each mutation is a mistake someone could plausibly make: a
 * deleted condition, a flipped comparison, a token comparison turned into an existence check,
 * NX or a TTL dropped, a key write skipped. An empty replacement deletes the text.
 * docs/guarantees-testing.md says how to add one.
 */
final class LuaMutations {

    /** The contract tests that a mutant of each script runs against. */
    static final Map<LuaScript, List<Class<?>>> CONTRACTS = Map.ofEntries(
            // claim.lua records outcomes, then claims: both halves have their contract
            entry(CLAIM, List.of(ClaimContractTest.class, CompleteContractTest.class, PriorityContractTest.class,
                    ClaimControlsContractTest.class)),
            entry(ENQUEUE, List.of(EnqueueContractTest.class, PriorityContractTest.class)),
            entry(REQUEUE, List.of(RequeueContractTest.class, PriorityContractTest.class)),
            entry(BEAT, List.of(BeatContractTest.class)),
            entry(PROMOTE, List.of(PromoteContractTest.class, PriorityContractTest.class)),
            entry(EXTEND, List.of(ExtendContractTest.class)),
            entry(RELEASE, List.of(ReleaseContractTest.class)),
            entry(CANCEL, List.of(CancelContractTest.class, PriorityContractTest.class)),
            entry(REVIVE, List.of(DeadLetterContractTest.class, PriorityContractTest.class)),
            entry(DISCARD, List.of(DeadLetterContractTest.class)),
            entry(CREATE, List.of(CreateContractTest.class)),
            entry(DEBIT, List.of(DebitContractTest.class)),
            entry(ISSUE, List.of(IssueContractTest.class)),
            entry(PROGRESS, List.of(ProgressContractTest.class)));

    static final List<LuaMutation> ALL = List.of(
            // claim.lua
            new LuaMutation(CLAIM, "heartbeat check deleted", "if not beat or beat < nowMs - tonumber(ARGV[6]) then", "if false then"),
            new LuaMutation(CLAIM, "heartbeat comparison flipped", "beat < nowMs - tonumber(ARGV[6])", "beat > nowMs - tonumber(ARGV[6])"),
            new LuaMutation(CLAIM, "a presumed-dead worker keeps its moved copy",
                    "redis.call('RPUSH', KEYS[1], moved)\n    end\n    return 0, 0", "end\n    return 0, 0"),
            new LuaMutation(CLAIM, "a claim held by pause or rate limit keeps its moved copy",
                    "redis.call('RPUSH', KEYS[1], moved)\n    end\n    return 1, 0", "end\n    return 1, 0"),
            new LuaMutation(CLAIM, "a paused queue claims anyway", "if gated and redis.call('EXISTS', pausedKey) == 1 then",
                    "if false then"),
            new LuaMutation(CLAIM, "the plain path's one read forgets the pause flag",
                    "redis.call('EXISTS', pausedKey, levelsKey)", "redis.call('EXISTS', levelsKey)"),
            new LuaMutation(CLAIM, "starts are not logged for the rate limit", "if rateMax > 0 then redis.call('ZADD', rateKey, now, token) end", ""),
            new LuaMutation(CLAIM, "the rate limit ignored", "local room = rateMax - redis.call('ZCARD', rateKey)", "local room = limit"),
            new LuaMutation(CLAIM, "the rate window never slides",
                    "redis.call('ZREMRANGEBYSCORE', rateKey, '-inf', string.format('%d', nowMs - rateWindow))", ""),
            new LuaMutation(CLAIM, "a full group is not checked",
                    "if room > 0 then return env.group, false end", "do return env.group, false end"),
            new LuaMutation(CLAIM, "the group rate limit needs group concurrency to apply",
                    "local grouped = groupMax > 0 or groupRateMax > 0", "local grouped = groupMax > 0"),
            new LuaMutation(CLAIM, "a group's rate window ignored",
                    "room = math.min(room, groupRateMax - redis.call('ZCARD', key))", ""),
            new LuaMutation(CLAIM, "a group's rate window never slides",
                    "redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', nowMs - groupRateWindow))", ""),
            new LuaMutation(CLAIM, "starts are not logged for the group rate limit", "redis.call('ZADD', key, now, token)", ""),
            new LuaMutation(CLAIM, "a group's rate log never expires",
                    "redis.call('PEXPIRE', key, string.format('%d', groupRateWindow))", ""),
            new LuaMutation(CLAIM, "a full concurrency counted as a full rate window",
                    "if groupRateMax == 0 or room <= 0 then return room, false end",
                    "if groupRateMax == 0 then return room, false end"),
            new LuaMutation(CLAIM, "copies set aside by the group rate limit not counted",
                    "if rateFull then count('group_rate_limited') end", ""),
            new LuaMutation(CLAIM, "parked copies of a rate-full group wait for the block timeout",
                    "heldBy, heldFor = 'parked', parkedWait", "heldBy, heldFor = 'parked', 0"),
            new LuaMutation(CLAIM, "the latest parked group's wait kept, not the soonest", "wait < parkedWait", "wait > parkedWait"),
            new LuaMutation(CLAIM, "parked copies taken only with group concurrency",
                    "if grouped then movedCount = claimParked(room, movedCount) end",
                    "if groupMax > 0 then movedCount = claimParked(room, movedCount) end"),
            new LuaMutation(CLAIM, "a finished execution stays in its group",
                    "redis.call('HDEL', base .. 'group:' .. env.group, token)", ""),
            new LuaMutation(CLAIM, "done-marker check deleted", "redis.call('EXISTS', base .. 'done:' .. env.id) == 1", "false"),
            new LuaMutation(CLAIM, "NX removed from the lock", "'NX', 'PX', ttl", "'PX', ttl"),
            new LuaMutation(CLAIM, "lock taken without a TTL", "'NX', 'PX', ttl", "'NX'"),
            new LuaMutation(CLAIM, "stale comparison flipped", "current > attempt", "current < attempt"),
            new LuaMutation(CLAIM, "the current attempt counted as stale", "current > attempt", "current >= attempt"),
            new LuaMutation(CLAIM, "a dropped copy stays in the processing list",
                    "redis.call('LREM', KEYS[2], '1', raw)\n  count('skipped_' .. reason)", "count('skipped_' .. reason)"),
            new LuaMutation(CLAIM, "token not written to the hash of an enqueued task",
                    "'attempt', attemptText, 'token', token, 'startedAt', now,\n      'attempts'",
                    "'attempt', attemptText, 'startedAt', now,\n      'attempts'"),
            new LuaMutation(CLAIM, "token not written to the hash of a pushed copy",
                    "'attempt', attemptText, 'token', token, 'startedAt', now, 'attempts', '1'",
                    "'attempt', attemptText, 'startedAt', now, 'attempts', '1'"),
            new LuaMutation(CLAIM, "attempts not counted", "string.format('%d', attempts + 1)", "string.format('%d', attempts)"),
            new LuaMutation(CLAIM, "fences not reserved in the counter", "redis.call('INCRBY', KEYS[3], string.format('%d', limit - taken))",
                    "redis.call('INCRBY', KEYS[3], '0')"),
            new LuaMutation(CLAIM, "free slots ignored", "while taken < limit and started", "while started"),
            new LuaMutation(CLAIM, "a moved copy the reaper took back is run anyway",
                    "if redis.call('LPOS', KEYS[2], moved) then take(moved) end", "take(moved)"),
            new LuaMutation(CLAIM, "an unreadable copy is not dead-lettered",
                    "redis.call('LPUSH', KEYS[5], cjson.encode({ id = cjson.null, error = 'unparseable envelope',\n"
                            + "      failedAt = tonumber(now), envelope = raw }))", ""),
            new LuaMutation(CLAIM, "the id rule not checked", "not valid_id(env.id)", "type(env.id) ~= 'string'"),
            new LuaMutation(CLAIM, "dropped copies not counted", "count('skipped_' .. reason)", ""),

            // claim.lua, its outcomes (CompleteContractTest)
            new LuaMutation(CLAIM, "ownership: token comparison turned into an existence check",
                    "if owner[1] ~= token then", "if not owner[1] then"),
            new LuaMutation(CLAIM, "a lost execution deletes the lock without comparing the token",
                    "if redis.call('GET', lockKey) == token then", "if redis.call('EXISTS', lockKey) == 1 then"),
            new LuaMutation(CLAIM, "done marker not written",
                    "redis.call('SET', base .. 'done:' .. id, MARKS[outcome], 'PX', window)", ""),
            new LuaMutation(CLAIM, "done marker without expiry", "MARKS[outcome], 'PX', window)", "MARKS[outcome])"),
            new LuaMutation(CLAIM, "done marker holds the outcome's name", "MARKS[outcome], 'PX'", "outcome, 'PX'"),
            new LuaMutation(CLAIM, "finished task hash never expires", "redis.call('PEXPIRE', taskKey, retention)", ""),
            new LuaMutation(CLAIM, "finished task hash kept for the whole dedup window",
                    "redis.call('PEXPIRE', taskKey, retention)", "redis.call('PEXPIRE', taskKey, window)"),
            new LuaMutation(CLAIM, "retry not scheduled", "redis.call('ZADD', KEYS[7], dueAt, nextRecord)", ""),
            new LuaMutation(CLAIM, "retry due at once instead of after its backoff",
                    "redis.call('ZADD', KEYS[7], dueAt, nextRecord)", "redis.call('ZADD', KEYS[7], now, nextRecord)"),
            new LuaMutation(CLAIM, "a retrying task stays owned", "redis.call('HDEL', taskKey, 'token')\n", ""),
            new LuaMutation(CLAIM, "the owner's copy stays in the processing list",
                    "redis.call('LREM', KEYS[2], '-1', envelope)\n  if groupMax", "if groupMax"),
            new LuaMutation(CLAIM, "the owner's lock is not freed",
                    "redis.call('DEL', lockKey)\n  redis.call('LREM', KEYS[2], '-1', envelope)\n  if groupMax",
                    "redis.call('LREM', KEYS[2], '-1', envelope)\n  if groupMax"),
            new LuaMutation(CLAIM, "a call sent again is not recognised by finishedBy",
                    "if owner[2] == token then return 1 end", ""),
            new LuaMutation(CLAIM, "a lost execution's copy stays in its list",
                    "if not owner[1] or string.sub(owner[1], 1, #prefix) ~= prefix then", "if false then"),
            new LuaMutation(CLAIM, "the newer owner's copy on the same worker is removed",
                    "if not owner[1] or string.sub(owner[1], 1, #prefix) ~= prefix then", "if true then"),
            new LuaMutation(CLAIM, "a dead task is not dead-lettered", "redis.call('LPUSH', KEYS[5], nextRecord)", ""),
            new LuaMutation(CLAIM, "lost locks not counted", "count('lost_locks')", ""),
            new LuaMutation(CLAIM, "a cancelled execution's outcome is recorded over the cancel", "if redis.call('HGET', taskKey, 'cancelledBy') == token then", "if false then"),
            new LuaMutation(CLAIM, "a cancelled execution's copy stays in its list",
                    "redis.call('LREM', KEYS[2], '-1', envelope)\n      return 2", "return 2"),
            new LuaMutation(CLAIM, "a cancelled execution's outcome answered as recorded", "return 2", "return 1"),
            new LuaMutation(CLAIM, "levels taken lowest first", "table.sort(levels, function(a, b) return a > b end)",
                    "table.sort(levels, function(a, b) return a < b end)"),
            new LuaMutation(CLAIM, "other levels never looked at", "redis.call('EXISTS', pausedKey, levelsKey)",
                    "redis.call('EXISTS', pausedKey)"),
            new LuaMutation(CLAIM, "a level the set names is not looked at",
                    "ipairs(redis.call('SMEMBERS', levelsKey))", "ipairs({})"),
            new LuaMutation(CLAIM, "a named level without tasks stays in the set",
                    "elseif level ~= '5' then\n        redis.call('SREM', levelsKey, level)", "elseif false then"),
            new LuaMutation(CLAIM, "weighted turns never move", "redis.call('INCR', base .. 'priority-turn') % total", "0"),
            new LuaMutation(CLAIM, "a BLMOVE'd wake-up taken for a task", "if moved == WAKE then", "if false then"),
            new LuaMutation(CLAIM, "a wake-up on pending taken for a task",
                    "if raw == WAKE then redis.call('LREM', KEYS[2], '1', WAKE) else take(raw) end", "take(raw)"),

            // enqueue.lua
            new LuaMutation(ENQUEUE, "known-id check deleted", "if existing[3] then", "if false then"),
            new LuaMutation(ENQUEUE, "payload digest not compared", "existing[1] == digest", "true"),
            new LuaMutation(ENQUEUE, "task type not compared", "(existing[2] == false or existing[2] == ttype)", "true"),
            new LuaMutation(ENQUEUE, "a hash without digest (a pushed copy) is a conflict", "existing[1] == false or ", ""),
            new LuaMutation(ENQUEUE, "a done marker without its hash is not a duplicate", "if mark then", "if false then"),
            new LuaMutation(ENQUEUE, "known ids not looked up", "redis.call('EXISTS', taskKey, doneKey) > 0", "false"),
            new LuaMutation(ENQUEUE, "done markers left out of the lookup", "redis.call('EXISTS', taskKey, doneKey)",
                    "redis.call('EXISTS', taskKey)"),
            new LuaMutation(ENQUEUE, "an answer given to the task before", "answers[#answers + 1] = (i - 5) / 4",
                    "answers[#answers + 1] = (i - 9) / 4"),
            new LuaMutation(ENQUEUE, "envelopes past the first slice dropped", "for first = 1, #list, 1000 do",
                    "for first = 1, math.min(#list, 1000), 1000 do"),
            new LuaMutation(ENQUEUE, "a done marker's outcome answered as its code", "OUTCOMES[tonumber(mark)] or mark", "mark"),
            new LuaMutation(ENQUEUE, "pushed on the end workers take from", "redis.call('LPUSH', key, unpack(",
                    "redis.call('RPUSH', key, unpack("),
            new LuaMutation(ENQUEUE, "every level pushed onto the default list",
                    "local key = level == DEFAULT and KEYS[1] or KEYS[1] .. ':' .. level", "local key = KEYS[1]"),
            new LuaMutation(ENQUEUE, "no wake-up for a task of another level", "redis.call('LPUSH', KEYS[1], WAKE)", ""),
            new LuaMutation(ENQUEUE, "the level not named for the claims",
                    "redis.call('SADD', base .. 'levels', unpack(others))", ""),
            new LuaMutation(ENQUEUE, "the hash forgets the level", "redis.call('HSET', taskKey, 'priority', level)", ""),
            new LuaMutation(ENQUEUE, "task hash not written", "redis.call('HSET', taskKey, 'id', id,",
                    "redis.call('HMGET', taskKey, 'id', id,"),
            new LuaMutation(ENQUEUE, "duplicates not counted", "if duplicates > 0 then", "if duplicates < 0 then"),

            // requeue.lua
            new LuaMutation(REQUEUE, "expired-heartbeat re-check deleted",
                    "if mode == 'expired' and beat and beat >= now - tonumber(ARGV[4]) then", "if false then"),
            new LuaMutation(REQUEUE, "expired-heartbeat re-check flipped", "beat >= now - tonumber(ARGV[4])", "beat < now - tonumber(ARGV[4])"),
            new LuaMutation(REQUEUE, "ownership: token prefix turned into an existence check",
                    "return value and string.sub(value, 1, #prefix) == prefix and not running[value]",
                    "return value and not running[value]"),
            new LuaMutation(REQUEUE, "locks of executions still running are freed", " and not running[value]", ""),
            new LuaMutation(REQUEUE, "copies not put back on pending", "redis.call('RPUSH', KEYS[2], raw)", ""),
            new LuaMutation(REQUEUE, "copies of another level not put back", "redis.call('RPUSH', KEYS[2] .. ':' .. level, raw)", ""),
            new LuaMutation(REQUEUE, "copies put back last in line", "redis.call('RPUSH', KEYS[2], raw)",
                    "redis.call('LPUSH', KEYS[2], raw)"),
            new LuaMutation(REQUEUE, "a copy's level not named for the claims", "redis.call('SADD', KEYS[4], level)", ""),
            new LuaMutation(REQUEUE, "no wake-up for a copy of another level",
                    "redis.call('LPUSH', KEYS[2], 'dedupq:wake')", ""),
            new LuaMutation(REQUEUE, "copies put back on the default level's list", "return string.format('%d', level)",
                    "return nil"),
            new LuaMutation(REQUEUE, "shutdown leaves a live heartbeat", "redis.call('ZADD', KEYS[3], string.format('%d', now - tonumber(ARGV[4])), worker)", ""),
            new LuaMutation(REQUEUE, "a recently reaped worker is forgotten at once", "(not beat or beat < now - tonumber(ARGV[5]))",
                    "true"),
            new LuaMutation(REQUEUE, "status not reset to queued", "redis.call('HSET', taskKey, 'status', 'queued')", ""),
            new LuaMutation(REQUEUE, "a given copy that is not in the list is pushed anyway",
                    "if redis.call('LREM', KEYS[1], 1, raw) == 1 then", "redis.call('LREM', KEYS[1], 1, raw)\n  do"),

            // beat.lua
            new LuaMutation(BEAT, "score in seconds", "local now = t[1] * 1000 + math.floor(t[2] / 1000)", "local now = t[1]"),
            new LuaMutation(BEAT, "heartbeat not written", "redis.call('ZADD', KEYS[1], string.format('%d', now), ARGV[1])", ""),
            new LuaMutation(BEAT, "an old heartbeat is not renewed", "redis.call('ZADD', KEYS[1], string.format",
                    "redis.call('ZADD', KEYS[1], 'NX', string.format"),
            new LuaMutation(BEAT, "another member stamped", "string.format('%d', now), ARGV[1])", "string.format('%d', now), 'worker')"),
            new LuaMutation(BEAT, "reply is not the score", "return now", "return 1"),

            // promote.lua
            new LuaMutation(PROMOTE, "due time ignored", "'-inf', string.format('%d', now)", "'-inf', '+inf'"),
            new LuaMutation(PROMOTE, "due time read in seconds", "local now = time[1] * 1000 + math.floor(time[2] / 1000)",
                    "local now = time[1]"),
            new LuaMutation(PROMOTE, "limit ignored", "'LIMIT', 0, ARGV[1]", "'LIMIT', 0, -1"),
            new LuaMutation(PROMOTE, "a promoted retry stays in delayed", "redis.call('ZREM', KEYS[1], raw)", ""),
            new LuaMutation(PROMOTE, "promoted to the end workers take last", "redis.call('LPUSH', level and",
                    "redis.call('RPUSH', level and"),
            new LuaMutation(PROMOTE, "no level named for the claims", "then redis.call('SADD', KEYS[3], level) end", "then end"),
            new LuaMutation(PROMOTE, "no wake-up for a retry of another level",
                    "redis.call('LPUSH', KEYS[2], 'dedupq:wake')", ""),
            new LuaMutation(PROMOTE, "promoted to the default level's list", "return string.format('%d', level)",
                    "return nil"),
            new LuaMutation(PROMOTE, "reply counts nothing", "return #due", "return 0"),

            // extend.lua
            new LuaMutation(EXTEND, "token comparison turned into an existence check", "redis.call('GET', KEYS[1]) == ARGV[1]",
                    "redis.call('EXISTS', KEYS[1]) == 1"),
            new LuaMutation(EXTEND, "ownership check deleted", "if redis.call('GET', KEYS[1]) == ARGV[1] then", "if true then"),
            new LuaMutation(EXTEND, "token comparison flipped", "== ARGV[1]", "~= ARGV[1]"),
            new LuaMutation(EXTEND, "a token prefix counts as the token", "redis.call('GET', KEYS[1]) == ARGV[1]",
                    "string.sub(redis.call('GET', KEYS[1]) or '', 1, #ARGV[1]) == ARGV[1]"),
            new LuaMutation(EXTEND, "TTL not renewed", "return redis.call('PEXPIRE', KEYS[1], ARGV[2])", "return 1"),
            new LuaMutation(EXTEND, "TTL removed instead of renewed", "redis.call('PEXPIRE', KEYS[1], ARGV[2])",
                    "redis.call('PERSIST', KEYS[1])"),
            new LuaMutation(EXTEND, "a refusal answered as granted", "return 0", "return 1"),

            // release.lua
            new LuaMutation(RELEASE, "token comparison turned into an existence check", "redis.call('GET', KEYS[1]) == ARGV[1]",
                    "redis.call('EXISTS', KEYS[1]) == 1"),
            new LuaMutation(RELEASE, "ownership check deleted", "if redis.call('GET', KEYS[1]) == ARGV[1] then", "if true then"),
            new LuaMutation(RELEASE, "token comparison flipped", "== ARGV[1]", "~= ARGV[1]"),
            new LuaMutation(RELEASE, "a token prefix counts as the token", "redis.call('GET', KEYS[1]) == ARGV[1]",
                    "string.sub(redis.call('GET', KEYS[1]) or '', 1, #ARGV[1]) == ARGV[1]"),
            new LuaMutation(RELEASE, "lock not deleted", "return redis.call('DEL', KEYS[1])", "return 1"),
            new LuaMutation(RELEASE, "a refusal answered as granted", "return 0", "return 1"),

            // progress.lua
            new LuaMutation(PROGRESS, "not fenced", "if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end", ""),
            new LuaMutation(PROGRESS, "fence turned into an existence check", "redis.call('HGET', KEYS[1], 'token') ~= ARGV[1]",
                    "not redis.call('HGET', KEYS[1], 'token')"),
            new LuaMutation(PROGRESS, "percent not written", "'progress', ARGV[2], ", ""),
            new LuaMutation(PROGRESS, "note not written", "'progressNote', ARGV[3],", ""),
            new LuaMutation(PROGRESS, "time not Redis's", "time[1] * 1000 + math.floor(time[2] / 1000)", "0"),
            new LuaMutation(PROGRESS, "a refused write answered as written", "then return 0 end", "then return 1 end"),

            // cancel.lua
            new LuaMutation(CANCEL, "a finished task is cancelled",
                    "if status ~= 'queued' and status ~= 'retrying' and status ~= 'running' then return { -1, status } end", ""),
            new LuaMutation(CANCEL, "a retrying task cannot be cancelled", " and status ~= 'retrying'", ""),
            new LuaMutation(CANCEL, "a running task cannot be cancelled", " and status ~= 'running'", ""),
            new LuaMutation(CANCEL, "the cancelled execution is not named", "redis.call('HSET', KEYS[1], 'cancelledBy', token)", ""),
            new LuaMutation(CANCEL, "the cancelled execution still owns the task", "redis.call('HDEL', KEYS[1], 'token')", ""),
            new LuaMutation(CANCEL, "a running task's lock stays held",
                    "if redis.call('GET', KEYS[6]) == token then redis.call('DEL', KEYS[6]) end", ""),
            new LuaMutation(CANCEL, "another execution's lock is deleted", "if redis.call('GET', KEYS[6]) == token then", "if true then"),
            new LuaMutation(CANCEL, "the worker is not told", "redis.call('PUBLISH', ARGV[4], cjson.encode({ id = id, token = token }))", ""),
            new LuaMutation(CANCEL, "a waiting task's cancel is announced", "if status == 'running' and token then", "if true then"),
            new LuaMutation(CANCEL, "copies stay in pending", "if copyOf(raw) then redis.call('LREM', pending, 0, raw) end", ""),
            new LuaMutation(CANCEL, "only the default level's list searched",
                    "local pending = level and KEYS[3] .. ':' .. level or KEYS[3]", "local pending = KEYS[3]"),
            new LuaMutation(CANCEL, "copies stay in delayed", "if copyOf(raw) then redis.call('ZREM', KEYS[4], raw) end", ""),
            new LuaMutation(CANCEL, "another id's copy taken for the text it contains",
                    "return ok and type(env) == 'table' and env.id == id", "return true"),
            new LuaMutation(CANCEL, "no done marker", "redis.call('SET', KEYS[2], '4', 'PX', ARGV[2])", ""),
            new LuaMutation(CANCEL, "done marker without expiry", "redis.call('SET', KEYS[2], '4', 'PX', ARGV[2])",
                    "redis.call('SET', KEYS[2], '4')"),
            new LuaMutation(CANCEL, "hash kept for ever", "redis.call('PEXPIRE', KEYS[1], ARGV[3])", ""),
            new LuaMutation(CANCEL, "finishedAt not Redis's", "time[1] * 1000 + math.floor(time[2] / 1000)", "0"),
            new LuaMutation(CANCEL, "a due retry time left behind", "redis.call('HDEL', KEYS[1], 'nextAttemptAt')", ""),
            new LuaMutation(CANCEL, "not counted", "redis.call('HINCRBY', KEYS[5], 'cancelled', 1)", ""),

            // revive.lua
            new LuaMutation(REVIVE, "a task that is not dead is revived",
                    "if status and status ~= 'failed' and status ~= 'dead' then return { -1, status } end", ""),
            new LuaMutation(REVIVE, "revived without its record in the dead list",
                    "if redis.call('LREM', KEYS[4], 1, ARGV[1]) == 0 then return { 0, '' } end",
                    "redis.call('LREM', KEYS[4], 1, ARGV[1])"),
            new LuaMutation(REVIVE, "done marker kept", "redis.call('DEL', KEYS[2])", ""),
            new LuaMutation(REVIVE, "the last run's error kept", "'nextAttemptAt', 'lastError', 'result'", "'nextAttemptAt', 'result'"),
            new LuaMutation(REVIVE, "attempt not reset", "'attempt', 0, 'attempts', 0", "'attempts', 0"),
            new LuaMutation(REVIVE, "no enqueue time for an expired hash",
                    "if not status then redis.call('HSET', KEYS[1], 'enqueuedAt', ARGV[6]) end", ""),
            new LuaMutation(REVIVE, "hash keeps its expiry", "redis.call('PERSIST', KEYS[1])", ""),
            new LuaMutation(REVIVE, "nothing pushed", "redis.call('LPUSH', KEYS[3], ARGV[2])", ""),
            new LuaMutation(REVIVE, "no wake-up for a task of another level",
                    "redis.call('LPUSH', KEYS[6], 'dedupq:wake')", ""),
            new LuaMutation(REVIVE, "the level not named for the claims", "redis.call('SADD', KEYS[7], ARGV[7])", ""),
            new LuaMutation(REVIVE, "the hash forgets the level", "redis.call('HSET', KEYS[1], 'priority', ARGV[7])", ""),

            // discard.lua
            new LuaMutation(DISCARD, "record kept", "if redis.call('LREM', KEYS[2], 1, ARGV[1]) == 0 then return 0 end",
                    "if redis.call('LRANGE', KEYS[2], 0, 0)[1] == nil then return 0 end"),
            new LuaMutation(DISCARD, "a record that is gone answered as removed", "then return 0 end", "then return 1 end"),
            new LuaMutation(DISCARD, "the hash still points to the record", "redis.call('HDEL', KEYS[1], 'deadRecord')", ""),
            new LuaMutation(DISCARD, "another record's pointer removed",
                    "if redis.call('HGET', KEYS[1], 'deadRecord') == ARGV[1] then", "if true then"),
            new LuaMutation(DISCARD, "not counted", "redis.call('HINCRBY', KEYS[3], 'discarded', 1)", ""),

            // create.lua
            new LuaMutation(CREATE, "an existing hash is written over", "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end", ""),
            new LuaMutation(CREATE, "a refusal answered as created", "then return 0 end", "then return 1 end"),
            new LuaMutation(CREATE, "fields not written", "redis.call('HSET', KEYS[1], unpack(ARGV))", ""),
            new LuaMutation(CREATE, "only the first field written", "unpack(ARGV)", "ARGV[1], ARGV[2]"),
            new LuaMutation(CREATE, "a creation answered as refused", "unpack(ARGV))\nreturn 1", "unpack(ARGV))\nreturn 0"),

            // debit.lua
            new LuaMutation(DEBIT, "per-task-id record not consulted", "if seen then", "if false then"),
            new LuaMutation(DEBIT, "fence check deleted", "if fence < seen then return -1 end", ""),
            new LuaMutation(DEBIT, "fence comparison flipped", "fence < seen", "fence > seen"),
            new LuaMutation(DEBIT, "per-task-id record not written", "redis.call('HSET', KEYS[3], taskId, fence)", ""),
            new LuaMutation(DEBIT, "no-account check deleted", "if not account[1] then return -2 end", ""),
            new LuaMutation(DEBIT, "currency not checked", "if account[1] ~= ARGV[3] then return -3 end", ""),
            new LuaMutation(DEBIT, "funds check deleted", "if balance < amount then return -4 end", ""),
            new LuaMutation(DEBIT, "the whole balance cannot be spent", "balance < amount", "balance <= amount"),
            new LuaMutation(DEBIT, "balance not written",
                    "redis.call('HSET', KEYS[1], 'balance', string.format('%d', balance - amount))", ""),
            new LuaMutation(DEBIT, "ledger entry not written",
                    "redis.call('LPUSH', KEYS[2], cjson.encode({ taskId = taskId, amount = amount, fencingToken = fence,\n"
                            + "  at = tonumber(ARGV[5]) }))", ""),

            // issue.lua
            new LuaMutation(ISSUE, "per-task-id record not consulted", "if seen then", "if false then"),
            new LuaMutation(ISSUE, "fence check deleted", "if fence < seen then return { -1, '' } end", ""),
            new LuaMutation(ISSUE, "fence comparison flipped", "fence < seen", "fence > seen"),
            new LuaMutation(ISSUE, "per-task-id record not written", "redis.call('HSET', KEYS[3], taskId, fence)", ""),
            new LuaMutation(ISSUE, "a missing campaign counts as stock", "if not stock then return { -2, '' } end",
                    "if not stock then stock = 1 end"),
            new LuaMutation(ISSUE, "one more code than the stock", "stock <= 0", "stock < 0"),
            new LuaMutation(ISSUE, "a code already handed out is issued again",
                    "if redis.call('SADD', KEYS[4], code) == 0 then return { -6, '' } end", "redis.call('SADD', KEYS[4], code)"),
            new LuaMutation(ISSUE, "stock not taken", "redis.call('HINCRBY', KEYS[1], 'stock', -1)", ""),
            new LuaMutation(ISSUE, "voucher entry not written",
                    "redis.call('LPUSH', KEYS[2], cjson.encode({ code = code, taskId = taskId, customerId = ARGV[2] }))", ""));

    private LuaMutations() {
    }
}
