--[[
  promote: move retries whose time has come from delayed back to pending.

  KEYS[1] delayed zset        {p:Q}:delayed
  KEYS[2] pending list        {p:Q}:pending
  ARGV[1] now (ms)
  ARGV[2] at most this many per call

  Returns how many envelopes were promoted.
]]
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, raw in ipairs(due) do
  redis.call('ZREM', KEYS[1], raw)
  redis.call('LPUSH', KEYS[2], raw)
end
return #due
