--[[
  cancel: end a task that is waiting (queued, or retrying in delayed) or running.
  Read and written by io.dedupq.queue.CancelScript, nowhere else.

  The task becomes terminal like a finished one: status cancelled, a dedup record (records.lua)
  for the dedup window (a copy that still turns up is dropped by claim.lua as done, enqueue answers
  duplicate), and the task hash expires after the result retention. Its waiting copies are taken out of
  pending and delayed; finding them reads both (cost grows with their length). The pending list
  searched is the one of the task's priority level, which its hash keeps as 'priority' unless it
  is the default (enqueue.lua): KEYS[3] then, KEYS[3]:<level> otherwise. A task already
  terminal is left as it is.

  A running task: its execution's token moves from token to cancelledBy (so claim.lua's outcome
  part sees the execution no longer owns the task, and answers "cancelled"), its lock is deleted
  if it still holds that token (the id is no longer held; the dedup record keeps copies out), and
  {"id","token"} is PUBLISHed on the cancel channel so that the worker running it interrupts the
  handler. The running copy stays in that worker's processing list: the worker's outcome removes
  it, or the reaper requeues it if the worker died and claim.lua drops it as done.

  KEYS[1] task hash           {p:Q}:task:<id>
  KEYS[2] records layout      {p:Q}:records  (the dedup records' keys are built from ARGV[5])
  KEYS[3] pending list        {p:Q}:pending  (the default level's)
  KEYS[4] delayed zset        {p:Q}:delayed
  KEYS[5] stats hash          {p:Q}:stats
  KEYS[6] lock                {p:Q}:lock:<id>
  ARGV[1] task id
  ARGV[2] dedup window (ms)
  ARGV[3] result retention (ms, at most the window)
  ARGV[4] cancel channel      <prefix>:cancel (not a key: PUBLISH reaches every node's subscribers)
  ARGV[5] key base            "{p:Q}:"
  ARGV[6] dedup buckets       the queue's setting, stored when the partition has no records layout yet

  finishedAt is the server's time (TIME), as claim.lua writes it for every other outcome.

  Returns {code, status}: {1, "cancelled"} cancelled; {0, ""} no such task;
  {-1, <status>} not cancellable in that status (already terminal).
]]
local id, base = ARGV[1], ARGV[5]
-- include: records
local task = redis.call('HMGET', KEYS[1], 'status', 'token', 'priority')
local status, token, level = task[1], task[2], task[3]
if not status then return { 0, '' } end
if status ~= 'queued' and status ~= 'retrying' and status ~= 'running' then return { -1, status } end

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

local time = redis.call('TIME')
local nowMs = time[1] * 1000 + math.floor(time[2] / 1000)
redis.call('HSET', KEYS[1], 'status', 'cancelled', 'finishedAt', string.format('%d', nowMs))
redis.call('HDEL', KEYS[1], 'nextAttemptAt')
if status == 'running' and token then
  redis.call('HSET', KEYS[1], 'cancelledBy', token)
  redis.call('HDEL', KEYS[1], 'token')
  if redis.call('GET', KEYS[6]) == token then redis.call('DEL', KEYS[6]) end
  redis.call('PUBLISH', ARGV[4], cjson.encode({ id = id, token = token }))
end
-- 4: cancelled, among the records' marks
remember(base, recordsLayout(base, nowMs, ARGV[6], ARGV[2]), id, RECORD_MARKS.cancelled, nowMs, tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('HINCRBY', KEYS[5], 'cancelled', 1)
return { 1, 'cancelled' }
