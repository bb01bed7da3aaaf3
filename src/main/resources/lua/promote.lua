--[[
  promote: move retries whose time has come from delayed back to pending, each to the list of
  its priority level: KEYS[2] for the default level 5 (or an envelope that names none or one that
  is not a level 0-9), KEYS[2]:<level> for the others, as enqueue.lua pushes them, with its
  wake-up entry on an empty KEYS[2] when it pushed onto another level's list.
  Called only through io.dedupq.worker.PromoteScript.

  KEYS[1] delayed zset        {p:Q}:delayed
  KEYS[2] pending list        {p:Q}:pending  (the default level's)
  ARGV[1] at most this many per call

  Due means due by the Redis server's clock (TIME), the clock claim.lua scheduled it by.

  Returns how many envelopes were promoted.
]]
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', now), 'LIMIT', 0, ARGV[1])

-- the pending list of an envelope's level (Priority in Java)
local function pendingOf(raw)
  local ok, env = pcall(cjson.decode, raw)
  local level = ok and type(env) == 'table' and env.priority
  if type(level) == 'number' and level % 1 == 0 and level >= 0 and level <= 9 and level ~= 5 then
    return KEYS[2] .. ':' .. string.format('%d', level)
  end
  return KEYS[2]
end

local others = false
for _, raw in ipairs(due) do
  redis.call('ZREM', KEYS[1], raw)
  local list = pendingOf(raw)
  others = others or list ~= KEYS[2]
  redis.call('LPUSH', list, raw)
end
if others and redis.call('LLEN', KEYS[2]) == 0 then redis.call('LPUSH', KEYS[2], 'dedupq:wake') end
return #due
