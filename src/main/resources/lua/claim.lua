--[[
  claim: move up to N envelopes from pending to this worker's processing list and take the
  lock of each task id. Copies that must not run are dropped here, never executed:
    - a done marker exists (the task already reached a terminal state)   -> duplicate "done"
    - the lock is held (another copy is running right now)               -> duplicate "locked"
    - the task hash is at a later attempt than the copy (a stale copy)   -> duplicate "stale"
  Unparseable envelopes go to the dead list as they are.

  KEYS[1] pending list        {p:Q}:pending
  KEYS[2] processing list     {p:Q}:processing:<worker>
  KEYS[3] fence counter       {p:Q}:fence  (one INCRBY per call reserves its fences)
  KEYS[4] stats hash          {p:Q}:stats
  KEYS[5] dead list           {p:Q}:dead
  KEYS[6] queue's workers     {p:Q}:workers  worker id -> last heartbeat (ms)
  ARGV[1] key base            "{p:Q}:"  (lock:, done:, task: keys are built from it; same slot)
  ARGV[2] max tasks to claim; copies dropped on the way do not count, but at most 4 x as many
          copies are moved in one call (a backlog of duplicates ends the call early)
  ARGV[3] lock ttl (ms)
  ARGV[4] worker id (lock token = <worker>:<fence>)
  ARGV[5] heartbeat freshness (ms): a worker whose heartbeat in KEYS[6] is older than this, by
          the Redis server's clock (TIME), claims nothing
  ARGV[6] queue name
  ARGV[7] an envelope already moved to processing by BLMOVE, or "" for none

  A worker claims only while its heartbeat is fresh, checked here atomically with the claim:
  the reaper can then never miss a copy that a worker took after it was presumed dead. Such a
  worker's BLMOVE'd copy goes straight back to pending. Every time here (the cutoff, startedAt)
  is the server's, so a pod's wrong clock cannot make its own heartbeat look stale or fresh.

  Returns a flat array: 1 (or 0 when the heartbeat was stale and nothing was claimed), the
  duplicates dropped as one nested array of (type, reason) pairs, one pair per dropped copy
  (reason done | locked | stale; for the worker's per-type metrics), the number dead-lettered,
  then (id, envelope, token, fence, type) for every claimed task.
]]
local base, limit, ttl, worker, queue = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[6]
local time = redis.call('TIME')
local nowMs = time[1] * 1000 + math.floor(time[2] / 1000)
local now = string.format('%d', nowMs)
local beat = tonumber(redis.call('ZSCORE', KEYS[6], worker))
if not beat or beat < nowMs - tonumber(ARGV[5]) then
  if ARGV[7] ~= '' and redis.call('LREM', KEYS[2], 1, ARGV[7]) == 1 then
    redis.call('RPUSH', KEYS[1], ARGV[7])
  end
  return { 0, {}, 0 }
end
local claimed, dropped, taken = {}, {}, 0
local dupDone, dupLocked, dupStale, dead = 0, 0, 0, 0

-- a non-negative integer below 2^53, or nil: anything else a producer sends is not trusted
local function whole(value)
  local n = tonumber(value)
  if n and n == n and n >= 0 and n <= 9007199254740992 and n % 1 == 0 then return n end
  return nil
end

local function valid_id(id)
  return type(id) == 'string' and #id >= 1 and #id <= 128 and string.match(id, '^[%w][%w%._:%-]*$') ~= nil
end

-- fences for this call are reserved with one INCRBY, for as many locks as it may still take, at
-- its first lock: one call however many tasks it claims; the numbers it does not use are skipped
-- (fences only have to grow)
local fence

local function nextFence()
  if not fence then
    fence = redis.call('INCRBY', KEYS[3], limit - taken) - (limit - taken)
  end
  return fence + 1
end

local function take(raw)
  local ok, env = pcall(cjson.decode, raw)
  if not ok or type(env) ~= 'table' or not valid_id(env.id) or type(env.type) ~= 'string' then
    redis.call('LREM', KEYS[2], 1, raw)
    redis.call('LPUSH', KEYS[5], cjson.encode({ id = cjson.null, error = 'unparseable envelope',
      failedAt = tonumber(now), envelope = raw }))
    dead = dead + 1
    return
  end
  local attempt = whole(env.attempt) or 0
  local taskKey = base .. 'task:' .. env.id
  local lockKey = base .. 'lock:' .. env.id
  if redis.call('EXISTS', base .. 'done:' .. env.id) == 1 then
    redis.call('LREM', KEYS[2], 1, raw)
    dupDone = dupDone + 1
    dropped[#dropped + 1] = env.type
    dropped[#dropped + 1] = 'done'
    return
  end
  local known = redis.call('HMGET', taskKey, 'attempt', 'attempts')
  local current = tonumber(known[1])
  if current and current > attempt then
    redis.call('LREM', KEYS[2], 1, raw)
    dupStale = dupStale + 1
    dropped[#dropped + 1] = env.type
    dropped[#dropped + 1] = 'stale'
    return
  end
  local candidate = nextFence()
  -- '%d', not '%.0f' or Lua's own number-to-string: glibc's floating-point formatting costs several times more
  local token = worker .. ':' .. string.format('%d', candidate)
  if not redis.call('SET', lockKey, token, 'NX', 'PX', ttl) then
    redis.call('LREM', KEYS[2], 1, raw)
    dupLocked = dupLocked + 1
    dropped[#dropped + 1] = env.type
    dropped[#dropped + 1] = 'locked'
    return
  end
  fence = candidate
  local attemptText = attempt == 0 and '0' or string.format('%d', attempt)
  local attempts = tonumber(known[2])
  if attempts then
    redis.call('HSET', taskKey, 'status', 'running', 'attempt', attemptText, 'token', token, 'worker', worker,
      'startedAt', now, 'attempts', string.format('%d', attempts + 1))
  else
    -- pushed straight onto the list by a producer (enqueue.lua always writes attempts): the hash starts here
    local enqueuedAt = whole(env.enqueuedAt)
    redis.call('HSET', taskKey, 'id', env.id, 'type', env.type, 'queue', queue,
      'enqueuedAt', enqueuedAt and string.format('%d', enqueuedAt) or now, 'status', 'running',
      'attempt', attemptText, 'token', token, 'worker', worker, 'startedAt', now, 'attempts', '1')
  end
  claimed[#claimed + 1] = env.id
  claimed[#claimed + 1] = raw
  claimed[#claimed + 1] = token
  claimed[#claimed + 1] = candidate
  claimed[#claimed + 1] = env.type
  taken = taken + 1
end

local moved = 0
-- the BLMOVE'd copy may have been requeued by the reaper meanwhile (this worker was paused):
-- then it is no longer ours to run
if ARGV[7] ~= '' then
  if redis.call('LPOS', KEYS[2], ARGV[7]) then take(ARGV[7]) end
  -- it had its slot, whatever came of it
  moved, taken = 1, 1
end
while taken < limit and moved < 4 * limit do
  local raw = redis.call('LMOVE', KEYS[1], KEYS[2], 'RIGHT', 'LEFT')
  if not raw then break end
  take(raw)
  moved = moved + 1
end

if dupDone > 0 then redis.call('HINCRBY', KEYS[4], 'skipped_done', dupDone) end
if dupLocked > 0 then redis.call('HINCRBY', KEYS[4], 'skipped_locked', dupLocked) end
if dupStale > 0 then redis.call('HINCRBY', KEYS[4], 'skipped_stale', dupStale) end
if dead > 0 then redis.call('HINCRBY', KEYS[4], 'unparseable', dead) end
local reply = { 1, dropped, dead }
for i = 1, #claimed do reply[#reply + 1] = claimed[i] end
return reply
