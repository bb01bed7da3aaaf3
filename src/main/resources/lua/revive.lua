--[[
  revive: put a dead-lettered task back on pending under the same id, as a first attempt.
  Read and written by io.dedupq.queue.ReviveScript, nowhere else.

  Only while the task is dead-lettered (status failed or dead, or its hash already expired
  with the dedup window) and its record is still in the dead list: the record is removed, the
  dedup record (records.lua) cleared, the hash reset to queued with no expiry, and the fresh
  envelope pushed for the workers onto the pending list of its priority level, with enqueue.lua's
  wake-up entry on an empty KEYS[6] when that is another level's list, and that level in the set
  KEYS[7] (claim.lua looks only at the levels it names).

  KEYS[1] task hash           {p:Q}:task:<id>
  KEYS[2] records layout      {p:Q}:records  (the dedup records' keys are built from ARGV[6])
  KEYS[3] pending list        {p:Q}:pending, or {p:Q}:pending:<level> for a level other than the default
  KEYS[4] dead list           {p:Q}:dead
  KEYS[5] stats hash          {p:Q}:stats
  KEYS[6] pending list        {p:Q}:pending  (the default level's, where idle workers wait)
  KEYS[7] levels set          {p:Q}:levels   (the other levels whose lists may hold tasks)
  ARGV[1] the dead record, exactly as it is in the dead list
  ARGV[2] the envelope to enqueue (attempt 0)
  ARGV[3] task type
  ARGV[4] now (ms)
  ARGV[5] the task's priority level, "" for the default (kept in the hash as 'priority', as enqueue.lua does)
  ARGV[6] key base            "{p:Q}:"
  ARGV[7] task id

  The hash is left as enqueue.lua writes one: no id, queue, attempt or attempts (claim.lua reads
  the last two as 0; the fields of a hash written before that are removed too).

  Returns {code, status}: {1, "queued"} revived; {0, ""} the record is no longer in the dead
  list; {-1, <status>} the task is not dead-lettered now (it was revived or enqueued again).
]]
-- include: records
local status = redis.call('HGET', KEYS[1], 'status')
if status and status ~= 'failed' and status ~= 'dead' then return { -1, status } end
if redis.call('LREM', KEYS[4], 1, ARGV[1]) == 0 then return { 0, '' } end

local time = redis.call('TIME')
local base = ARGV[6]
forget(base, recordsLayout(base, time[1] * 1000 + math.floor(time[2] / 1000)), ARGV[7])
redis.call('HDEL', KEYS[1], 'startedAt', 'finishedAt', 'nextAttemptAt', 'lastError', 'result', 'deadRecord',
  'finishedBy', 'token', 'priority', 'attempt', 'attempts', 'id', 'queue')
redis.call('HSET', KEYS[1], 'type', ARGV[3], 'status', 'queued')
if not status then redis.call('HSET', KEYS[1], 'enqueuedAt', ARGV[4]) end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'priority', ARGV[5]) end
redis.call('PERSIST', KEYS[1])
redis.call('LPUSH', KEYS[3], ARGV[2])
if ARGV[5] ~= '' then
  redis.call('SADD', KEYS[7], ARGV[5])
  if redis.call('LLEN', KEYS[6]) == 0 then redis.call('LPUSH', KEYS[6], 'dedupq:wake') end
end
redis.call('HINCRBY', KEYS[5], 'revived', 1)
return { 1, 'queued' }
