--[[
  requeue: put copies from a processing list back on pending, oldest first in line.

  Used by the reaper for a worker whose heartbeat expired (all of its list) and by a worker
  for its own copies that are not running (after a lost reply, or at shutdown). The lock and
  the running status of a copy are cleared only where they belong to that worker, so the
  requeued copy can be claimed at once instead of waiting out the lock TTL.

  KEYS[1] processing list     {p:Q}:processing:<worker>
  KEYS[2] pending list        {p:Q}:pending
  ARGV[1] key base            "{p:Q}:"
  ARGV[2] worker id whose locks may be released
  ARGV[3..n] pairs (envelope, release) to requeue; when absent, the whole list is requeued
             with release = 1. release = 0 keeps the lock (the id is still running here).

  Returns how many copies went back to pending.
]]
local base, prefix = ARGV[1], ARGV[2] .. ':'
local entries = {}
if #ARGV > 2 then
  for i = 3, #ARGV, 2 do entries[#entries + 1] = { ARGV[i], ARGV[i + 1] == '1' } end
else
  for _, raw in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do entries[#entries + 1] = { raw, true } end
end

local function owned(value)
  return value and string.sub(value, 1, #prefix) == prefix
end

local moved = 0
for _, entry in ipairs(entries) do
  local raw, release = entry[1], entry[2]
  if redis.call('LREM', KEYS[1], 1, raw) == 1 then
    local ok, env = pcall(cjson.decode, raw)
    if release and ok and type(env) == 'table' and type(env.id) == 'string' then
      local lockKey, taskKey = base .. 'lock:' .. env.id, base .. 'task:' .. env.id
      if owned(redis.call('GET', lockKey)) then redis.call('DEL', lockKey) end
      if owned(redis.call('HGET', taskKey, 'token')) then
        redis.call('HSET', taskKey, 'status', 'queued')
        redis.call('HDEL', taskKey, 'token', 'worker')
      end
    end
    redis.call('RPUSH', KEYS[2], raw)
    moved = moved + 1
  end
end
return moved
