--[[
  promote: move retries whose time has come from delayed back to pending.
  Called only through io.dedupq.worker.PromoteScript.

  KEYS[1] delayed zset        {p:Q}:delayed
  KEYS[2] pending list        {p:Q}:pending
  ARGV[1] at most this many per call

  Due means due by the Redis server's clock (TIME), the clock claim.lua scheduled it by.

  Returns how many envelopes were promoted.
]]
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', now), 'LIMIT', 0, ARGV[1])
for _, raw in ipairs(due) do
  redis.call('ZREM', KEYS[1], raw)
  redis.call('LPUSH', KEYS[2], raw)
end
return #due
