--[[
  enqueue: accept each task id once per queue.

  A task whose hash already exists is not pushed again: it is a duplicate when its payload
  digest matches the stored one, a conflict when it does not. Once a finished task's result
  retention has passed, its hash is gone and its done marker alone remembers the id until the
  dedup window ends: a duplicate then, whatever its payload (the digest went with the hash),
  answered with the outcome the marker holds.

  KEYS[1] pending list        {p:Q}:pending
  KEYS[2] stats hash          {p:Q}:stats
  ARGV[1] key base            "{p:Q}:"  (task:<id>, done:<id> are built from it; same hash slot)
  ARGV[2] queue name
  ARGV[3] now (ms)
  ARGV[4 + 4k .. 7 + 4k]      id, type, payload digest, envelope JSON   (k = 0 .. n-1)

  Returns a flat array, two entries per task:
    code    1 = queued, 0 = duplicate, -1 = conflict
    status  the task's current status ("queued" for new tasks)
]]
local base = ARGV[1]
-- the outcome codes of done markers (claim.lua says why they are numbers); a marker written
-- before them holds the outcome's name
local OUTCOMES = { 'succeeded', 'failed', 'dead', 'cancelled' }
local result = {}
local accepted = 0
for i = 4, #ARGV, 4 do
  local id, ttype, digest, envelope = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local taskKey = base .. 'task:' .. id
  local existing = redis.call('HMGET', taskKey, 'digest', 'type', 'status')
  local mark = not existing[3] and redis.call('GET', base .. 'done:' .. id)
  if existing[3] then
    local same = (existing[1] == false or existing[1] == digest) and (existing[2] == false or existing[2] == ttype)
    result[#result + 1] = same and 0 or -1
    result[#result + 1] = existing[3]
  elseif mark then
    result[#result + 1] = 0
    result[#result + 1] = OUTCOMES[tonumber(mark)] or mark
  else
    redis.call('HSET', taskKey, 'id', id, 'type', ttype, 'queue', ARGV[2], 'status', 'queued',
      'digest', digest, 'attempt', 0, 'attempts', 0, 'enqueuedAt', ARGV[3])
    redis.call('LPUSH', KEYS[1], envelope)
    accepted = accepted + 1
    result[#result + 1] = 1
    result[#result + 1] = 'queued'
  end
end
local duplicates = (#result / 2) - accepted
if accepted > 0 then redis.call('HINCRBY', KEYS[2], 'enqueued', accepted) end
if duplicates > 0 then redis.call('HINCRBY', KEYS[2], 'rejected_duplicates', duplicates) end
return result
