--[[
  enqueue: accept each task id once per queue. io.dedupq.queue.EnqueueScript is its codec.

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

  Returns the tasks that were not queued, three entries each:
    k       the task's position in the call (0 .. n-1)
    code    0 = duplicate, -1 = conflict
    status  the known task's current status
  Every task not listed was queued. Most submissions are new ids, so the usual reply is empty.
]]
local base, queue, now = ARGV[1], ARGV[2], ARGV[3]
-- the outcome codes of done markers (claim.lua says why they are numbers); a marker written
-- before them holds the outcome's name
local OUTCOMES = { 'succeeded', 'failed', 'dead', 'cancelled' }
local answers = {}
local envelopes = {}
for i = 4, #ARGV, 4 do
  local id, ttype, digest = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local taskKey = base .. 'task:' .. id
  local doneKey = base .. 'done:' .. id
  local known, answer = false, nil
  -- one lookup answers the usual case, an id seen neither as a task nor as a done marker
  if redis.call('EXISTS', taskKey, doneKey) > 0 then
    local existing = redis.call('HMGET', taskKey, 'digest', 'type', 'status')
    if existing[3] then
      local same = (existing[1] == false or existing[1] == digest) and (existing[2] == false or existing[2] == ttype)
      known, answer = existing[3], same and 0 or -1
    else
      local mark = redis.call('GET', doneKey)
      if mark then
        known, answer = OUTCOMES[tonumber(mark)] or mark, 0
      end
    end
  end
  if known then
    answers[#answers + 1] = (i - 4) / 4
    answers[#answers + 1] = answer
    answers[#answers + 1] = known
  else
    -- strings, not numbers: Lua would format a number through glibc's floating-point printing
    redis.call('HSET', taskKey, 'id', id, 'type', ttype, 'queue', queue, 'status', 'queued',
      'digest', digest, 'attempt', '0', 'attempts', '0', 'enqueuedAt', now)
    envelopes[#envelopes + 1] = ARGV[i + 3]
  end
end
-- one LPUSH for the call, in submission order (the first at the right end, where workers take);
-- in slices, as unpack is bounded by Lua's C stack
for first = 1, #envelopes, 1000 do
  redis.call('LPUSH', KEYS[1], unpack(envelopes, first, math.min(first + 999, #envelopes)))
end
local duplicates = #answers / 3
if #envelopes > 0 then redis.call('HINCRBY', KEYS[2], 'enqueued', #envelopes) end
if duplicates > 0 then redis.call('HINCRBY', KEYS[2], 'rejected_duplicates', duplicates) end
return answers
