--[[
  complete: record the outcomes of N executions of one queue and worker in one call, each only
  if that execution still owns its task.

  Ownership is the token stored in the task hash at claim time. An execution whose lock
  expired and whose task was claimed again by a newer execution is no longer the owner: its
  copy is removed from its processing list and nothing else changes, so it can never
  overwrite the newer owner's status. The owner deletes its lock outright: claim.lua writes a
  new lock and the hash's token together, so while the hash holds our token the lock is ours or
  has expired. Anyone else deletes the lock only when it still holds their token (the hash may
  be gone). When the newer owner runs on this same worker, the copy in the list is the newer
  one's and stays. Each outcome is judged on its own: one lost task does not affect the others.
  Copies are removed from the processing list searching from its tail, where the oldest are.

  KEYS[1] processing list     {p:Q}:processing:<worker>
  KEYS[2] stats hash          {p:Q}:stats
  KEYS[3] delayed zset        {p:Q}:delayed
  KEYS[4] dead list           {p:Q}:dead
  ARGV[1] key base            "{p:Q}:"  (lock:, done:, task: keys are built from it; same slot)
  ARGV[2] dedup window (ms): how long the done marker stays
  ARGV[3] worker id of these executions
  ARGV[4] result retention (ms, at most the window): how long a finished task's hash stays
  ARGV[5 + 7k .. 11 + 7k]     one outcome (k = 0 .. N-1):
    id          the task id
    envelope    the envelope as claimed (removed from the processing list)
    token       lock token of this execution
    outcome     succeeded | retrying | failed | dead
    detail      succeeded: result JSON or ""; otherwise the error message
    nextRecord  retrying: the next envelope (attempt + 1); failed/dead: the dead-letter record
    delay       retrying: in how long the next attempt is due (ms), from the Redis server's
                clock (TIME; finishedAt too), the one promote.lua compares due times with

  The token of every recorded outcome is kept as finishedBy, so a call that is sent again
  after its reply was lost is recognised and answers 1 for it without changing anything.

  Returns one entry per outcome, in order: 1 when recorded, 0 when that execution had lost
  its task.
]]
local base, window, retention = ARGV[1], ARGV[2], ARGV[4]
-- the done marker holds the outcome as a small integer: Redis shares those, so it costs no value
-- of its own (enqueue.lua and QueueStore read it back: 1 succeeded, 2 failed, 3 dead, 4 cancelled)
local MARKS = { succeeded = '1', failed = '2', dead = '3' }
local prefix = ARGV[3] .. ':'
local time = redis.call('TIME')
local nowMs = time[1] * 1000 + math.floor(time[2] / 1000)
local now = string.format('%d', nowMs)
local counts = {}

local function count(field)
  counts[field] = (counts[field] or 0) + 1
end

local function complete(id, envelope, token, outcome, detail, nextRecord, delay)
  local lockKey, taskKey = base .. 'lock:' .. id, base .. 'task:' .. id
  local owner = redis.call('HMGET', taskKey, 'token', 'finishedBy')
  if owner[1] ~= token then
    -- the lock is ours only if it still carries our token (the task hash may be gone)
    if redis.call('GET', lockKey) == token then
      redis.call('DEL', lockKey)
    end
    if owner[2] == token then return 1 end
    if not owner[1] or string.sub(owner[1], 1, #prefix) ~= prefix then
      redis.call('LREM', KEYS[1], -1, envelope)
    end
    count('lost_locks')
    return 0
  end
  -- the owner's lock is its own or gone: claim.lua writes a new lock and the hash's token together
  redis.call('DEL', lockKey)
  redis.call('LREM', KEYS[1], -1, envelope)

  if outcome == 'retrying' then
    local dueAt = string.format('%d', nowMs + tonumber(delay))
    redis.call('HSET', taskKey, 'finishedBy', token, 'status', 'retrying', 'attempt', cjson.decode(nextRecord).attempt,
      'lastError', detail, 'nextAttemptAt', dueAt, 'finishedAt', now)
    redis.call('HDEL', taskKey, 'token', 'worker')
    redis.call('ZADD', KEYS[3], dueAt, nextRecord)
    count('retried')
    return 1
  end

  if outcome ~= 'succeeded' then
    redis.call('HSET', taskKey, 'finishedBy', token, 'status', outcome, 'finishedAt', now, 'lastError', detail,
      'deadRecord', nextRecord)
    redis.call('LPUSH', KEYS[4], nextRecord)
  elseif detail ~= '' then
    redis.call('HSET', taskKey, 'finishedBy', token, 'status', outcome, 'finishedAt', now, 'result', detail)
  else
    redis.call('HSET', taskKey, 'finishedBy', token, 'status', outcome, 'finishedAt', now)
  end
  redis.call('HDEL', taskKey, 'token', 'worker', 'nextAttemptAt')
  redis.call('SET', base .. 'done:' .. id, MARKS[outcome], 'PX', window)
  redis.call('PEXPIRE', taskKey, retention)
  count(outcome)
  return 1
end

local replies = {}
for i = 5, #ARGV, 7 do
  replies[#replies + 1] = complete(ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6])
end
for field, n in pairs(counts) do
  redis.call('HINCRBY', KEYS[2], field, n)
end
return replies
