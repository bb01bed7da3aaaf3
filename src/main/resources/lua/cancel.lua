--[[
  cancel: end a task that is still waiting (queued, or retrying in delayed) before it runs.
  Read and written by io.dedupq.queue.CancelScript, nowhere else.

  The task becomes terminal like a finished one: status cancelled, a done marker for the dedup
  window (a copy that still turns up is dropped by claim.lua as done, enqueue answers
  duplicate), and the task hash expires after the result retention. Its waiting copies are taken out of
  pending and delayed; finding them reads both (cost grows with their length). The pending list
  searched is the one of the task's priority level, which its hash keeps as 'priority' unless it
  is the default (enqueue.lua): KEYS[3] then, KEYS[3]:<level> otherwise. A running task or one
  already terminal is left as it is.

  KEYS[1] task hash           {p:Q}:task:<id>
  KEYS[2] done marker         {p:Q}:done:<id>
  KEYS[3] pending list        {p:Q}:pending  (the default level's)
  KEYS[4] delayed zset        {p:Q}:delayed
  KEYS[5] stats hash          {p:Q}:stats
  ARGV[1] task id
  ARGV[2] now (ms)
  ARGV[3] dedup window (ms)
  ARGV[4] result retention (ms, at most the window)

  Returns {code, status}: {1, "cancelled"} cancelled; {0, ""} no such task;
  {-1, <status>} not cancellable in that status (running, or already terminal).
]]
local id = ARGV[1]
local known = redis.call('HMGET', KEYS[1], 'status', 'priority')
local status, level = known[1], known[2]
if not status then return { 0, '' } end
if status ~= 'queued' and status ~= 'retrying' then return { -1, status } end

-- a plain text search first; only candidates are decoded
local function copyOf(raw)
  if not string.find(raw, id, 1, true) then return false end
  local ok, env = pcall(cjson.decode, raw)
  return ok and type(env) == 'table' and env.id == id
end

local pending = level and KEYS[3] .. ':' .. level or KEYS[3]
for _, raw in ipairs(redis.call('LRANGE', pending, 0, -1)) do
  if copyOf(raw) then redis.call('LREM', pending, 0, raw) end
end
for _, raw in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
  if copyOf(raw) then redis.call('ZREM', KEYS[4], raw) end
end

redis.call('HSET', KEYS[1], 'status', 'cancelled', 'finishedAt', ARGV[2])
redis.call('HDEL', KEYS[1], 'nextAttemptAt')
-- 4 is cancelled among the done markers' outcome codes (claim.lua says why they are numbers)
redis.call('SET', KEYS[2], '4', 'PX', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('HINCRBY', KEYS[5], 'cancelled', 1)
return { 1, 'cancelled' }
