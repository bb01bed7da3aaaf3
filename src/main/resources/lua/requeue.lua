--[[
  requeue: put copies from one worker's processing list back on pending, first in line, each on
  the list of its priority level: KEYS[2] for the default level 5 (or an envelope that names none
  or one that is not a level 0-9, and enqueue.lua's wake-up entry), KEYS[2]:<level> for the others,
  with enqueue.lua's wake-up entry on an empty KEYS[2] when it pushed onto another level's list,
  and that level in the set KEYS[4] (claim.lua looks only at the levels it names).
  Read and written by io.dedupq.worker.RequeueScript, nowhere else.

  Three callers:
    given   - a worker, for its own copies that nothing runs (a claim reply was lost)
    all     - a worker at the end of shutdown: its whole list; its heartbeat is then set to
              ARGV[4] ms before now (already expired), so that anything that still lands in its list is
              requeued by the reaper, which forgets the worker later
    expired - the reaper, for a worker whose heartbeat is older than ARGV[4] (checked
              here, atomically, so a worker that beat again meanwhile is left alone)
  Ages are measured on the Redis server's clock (TIME), as heartbeats are written (beat.lua):
  a pod's wrong clock can never make a live worker look dead.
  The lock and the running status of a copy are cleared only where that worker holds them and
  no execution of it still runs there, so the copy can be claimed at once instead of waiting
  out the lock TTL.

  KEYS[1] processing list     {p:Q}:processing:<worker>
  KEYS[2] pending list        {p:Q}:pending  (the default level's)
  KEYS[3] queue's workers     {p:Q}:workers
  KEYS[4] levels set          {p:Q}:levels   (the other levels whose lists may hold tasks)
  ARGV[1] key base            "{p:Q}:"
  ARGV[2] worker id
  ARGV[3] mode: given | all | expired
  ARGV[4] expired: the heartbeat age (ms) past which the worker is dead; all: how old (ms) the
          heartbeat left behind is; given: 0
  ARGV[5] expired: forget the worker (ZREM) once its list is empty and its heartbeat is older than this (ms);
          otherwise 0
  ARGV[6] given: how many envelopes follow (n)
  ARGV[7 .. 6+n] given: the envelopes to requeue
  ARGV[7+n ..] given: lock tokens of executions still running on that worker (left alone)

  Returns the type of every copy that went back to pending, one per copy ("unknown" when its
  envelope does not read), for the worker's per-type metrics; its length is how many moved.
]]
local base, worker, mode = ARGV[1], ARGV[2], ARGV[3]
local prefix = worker .. ':'
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
local beat = tonumber(redis.call('ZSCORE', KEYS[3], worker))
if mode == 'expired' and beat and beat >= now - tonumber(ARGV[4]) then
  return {}
end

local entries, running = {}, {}
if mode == 'given' then
  local n = tonumber(ARGV[6])
  for i = 7, 6 + n do entries[#entries + 1] = ARGV[i] end
  for i = 7 + n, #ARGV do running[ARGV[i]] = true end
else
  entries = redis.call('LRANGE', KEYS[1], 0, -1)
end

-- a decoded envelope's level other than the default, as text, or nil (Priority in Java)
local function levelOf(env)
  local level = type(env) == 'table' and env.priority
  if type(level) == 'number' and level % 1 == 0 and level >= 0 and level <= 9 and level ~= 5 then
    return string.format('%d', level)
  end
  return nil
end

local function owned(value)
  return value and string.sub(value, 1, #prefix) == prefix and not running[value]
end

local moved = {}
local others = false
for _, raw in ipairs(entries) do
  if redis.call('LREM', KEYS[1], 1, raw) == 1 then
    local ok, env = pcall(cjson.decode, raw)
    local readable = ok and type(env) == 'table'
    moved[#moved + 1] = readable and type(env.type) == 'string' and env.type or 'unknown'
    if readable and type(env.id) == 'string' then
      local lockKey, taskKey = base .. 'lock:' .. env.id, base .. 'task:' .. env.id
      if owned(redis.call('GET', lockKey)) then redis.call('DEL', lockKey) end
      if owned(redis.call('HGET', taskKey, 'token')) then
        redis.call('HSET', taskKey, 'status', 'queued')
        redis.call('HDEL', taskKey, 'token')
      end
    end
    local level = levelOf(readable and env)
    if level then
      redis.call('RPUSH', KEYS[2] .. ':' .. level, raw)
      redis.call('SADD', KEYS[4], level)
      others = true
    else
      redis.call('RPUSH', KEYS[2], raw)
    end
  end
end
if others and redis.call('LLEN', KEYS[2]) == 0 then redis.call('LPUSH', KEYS[2], 'dedupq:wake') end

-- a presumed-dead worker stays listed for a while: a copy it moves in after all is still found
if mode == 'all' then
  redis.call('ZADD', KEYS[3], string.format('%d', now - tonumber(ARGV[4])), worker)
elseif mode == 'expired' and (not beat or beat < now - tonumber(ARGV[5])) and redis.call('LLEN', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[3], worker)
end
return moved
