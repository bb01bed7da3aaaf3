--[[
  promote: move retries whose time has come from delayed back to pending, each to the list of
  its priority level: KEYS[2] for the default level 5 (or an envelope that names none or one that
  is not a level 0-9), KEYS[2]:<level> for the others, as enqueue.lua pushes them, with its
  wake-up entry on an empty KEYS[2] when it pushed onto another level's list.
  Called only through io.dedupq.worker.PromoteScript, every promote-interval on each worker.

  Then it names every other level whose list has tasks in the set KEYS[3], the only levels
  claim.lua looks at: its own retries, and those of a producer of its own that pushed onto a
  level's list without adding the level (docs/redis-keys.md asks it to), which are claimed then
  after at most one promote-interval instead of never.

  KEYS[1] delayed zset        {p:Q}:delayed
  KEYS[2] pending list        {p:Q}:pending  (the default level's)
  KEYS[3] levels set          {p:Q}:levels   (the other levels whose lists may hold tasks)
  ARGV[1] at most this many per call

  Due means due by the Redis server's clock (TIME), the clock claim.lua scheduled it by.

  Returns how many envelopes were promoted.
]]
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', now), 'LIMIT', 0, ARGV[1])

-- an envelope's level other than the default, as text, or nil (Priority in Java)
local function levelOf(raw)
  local ok, env = pcall(cjson.decode, raw)
  local level = ok and type(env) == 'table' and env.priority
  if type(level) == 'number' and level % 1 == 0 and level >= 0 and level <= 9 and level ~= 5 then
    return string.format('%d', level)
  end
  return nil
end

local others = false
for _, raw in ipairs(due) do
  redis.call('ZREM', KEYS[1], raw)
  local level = levelOf(raw)
  others = others or level ~= nil
  redis.call('LPUSH', level and KEYS[2] .. ':' .. level or KEYS[2], raw)
end
if others and redis.call('LLEN', KEYS[2]) == 0 then redis.call('LPUSH', KEYS[2], 'dedupq:wake') end

for _, level in ipairs({ '0', '1', '2', '3', '4', '6', '7', '8', '9' }) do
  if redis.call('EXISTS', KEYS[2] .. ':' .. level) == 1 then redis.call('SADD', KEYS[3], level) end
end
return #due
