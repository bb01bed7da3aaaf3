--[[
  complete: record the outcome of one execution, only if that execution still owns the task.

  Ownership is the token stored in the task hash at claim time. An execution whose lock
  expired and whose task was claimed again by a newer execution is no longer the owner: its
  copy is removed from its processing list and nothing else changes, so it can never
  overwrite the newer owner's status. The lock is deleted only when it still holds our token.
  When the newer owner runs on this same worker, the copy in the list is the newer one's and
  stays.

  KEYS[1] processing list     {p:Q}:processing:<worker>
  KEYS[2] lock                {p:Q}:lock:<id>
  KEYS[3] done marker         {p:Q}:done:<id>
  KEYS[4] task hash           {p:Q}:task:<id>
  KEYS[5] stats hash          {p:Q}:stats
  KEYS[6] delayed zset        {p:Q}:delayed
  KEYS[7] dead list           {p:Q}:dead
  ARGV[1] the envelope as claimed (removed from the processing list)
  ARGV[2] lock token of this execution
  ARGV[3] now (ms)
  ARGV[4] outcome: succeeded | retrying | failed | dead
  ARGV[5] dedup window (ms): how long the done marker and the task hash stay
  ARGV[6] succeeded: result JSON or ""; otherwise the error message
  ARGV[7] retrying: the next envelope (attempt + 1); failed/dead: the dead-letter record
  ARGV[8] retrying: when the next attempt is due (ms)
  ARGV[9] worker id of this execution

  The token of every recorded outcome is kept as finishedBy, so a call that is sent again
  after its reply was lost is recognised and answers 1 without changing anything.

  Returns 1 when the outcome was recorded, 0 when this execution had lost the task.
]]
local token, now, outcome, window = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local prefix = ARGV[9] .. ':'

if redis.call('GET', KEYS[2]) == token then
  redis.call('DEL', KEYS[2])
end
local owner = redis.call('HMGET', KEYS[4], 'token', 'finishedBy')
if owner[1] ~= token then
  if owner[2] == token then return 1 end
  if not owner[1] or string.sub(owner[1], 1, #prefix) ~= prefix then
    redis.call('LREM', KEYS[1], 1, ARGV[1])
  end
  redis.call('HINCRBY', KEYS[5], 'lost_locks', 1)
  return 0
end
redis.call('LREM', KEYS[1], 1, ARGV[1])
redis.call('HSET', KEYS[4], 'finishedBy', token)

if outcome == 'retrying' then
  redis.call('HSET', KEYS[4], 'status', 'retrying', 'attempt', cjson.decode(ARGV[7]).attempt,
    'lastError', ARGV[6], 'nextAttemptAt', ARGV[8], 'finishedAt', now)
  redis.call('HDEL', KEYS[4], 'token', 'worker')
  redis.call('ZADD', KEYS[6], ARGV[8], ARGV[7])
  redis.call('HINCRBY', KEYS[5], 'retried', 1)
  return 1
end

redis.call('HSET', KEYS[4], 'status', outcome, 'finishedAt', now)
redis.call('HDEL', KEYS[4], 'token', 'worker', 'nextAttemptAt')
if outcome == 'succeeded' then
  if ARGV[6] ~= '' then redis.call('HSET', KEYS[4], 'result', ARGV[6]) end
else
  redis.call('HSET', KEYS[4], 'lastError', ARGV[6], 'deadRecord', ARGV[7])
  redis.call('LPUSH', KEYS[7], ARGV[7])
end
redis.call('SET', KEYS[3], outcome, 'PX', window)
redis.call('PEXPIRE', KEYS[4], window)
redis.call('HINCRBY', KEYS[5], outcome, 1)
return 1
