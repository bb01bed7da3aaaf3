--[[
  enqueue: accept each task id once per queue. io.dedupq.queue.EnqueueScript is its codec.

  A task whose hash already exists is not pushed again: it is a duplicate when its payload
  digest matches the stored one, a conflict when it does not. Once a finished task's result
  retention has passed, its hash is gone and its dedup record (records.lua) alone remembers the
  id until the dedup window ends: a duplicate then, whatever its payload (the digest went with
  the hash), answered with the outcome the record holds.

  Priorities: a task goes to the pending list of its level, KEYS[1] for the default level 5 and
  KEYS[1]:<level> for the others (0 lowest .. 9 highest); its hash keeps a level other than the
  default as 'priority' (cancel.lua finds the copy by it). When a task of another level is pushed
  while KEYS[1] is empty, the wake-up entry 'dedupq:wake' goes onto KEYS[1]: an idle worker
  waits with BLMOVE on KEYS[1] alone, and claim.lua drops the entry and claims from every level.
  Each other level pushed to is added to the set <base>levels, the only levels claim.lua looks at.

  The hash holds neither the id nor the queue (its key names both) nor attempt 0 nor attempts 0
  (claim.lua writes the attempt it runs and counts the executions; it reads an absent field as
  0): fewer fields are less work and memory per task.

  KEYS[1] pending list        {p:Q}:pending  (the default level's)
  KEYS[2] stats hash          {p:Q}:stats
  ARGV[1] key base            "{p:Q}:"  (task:<id>, levels and the dedup records' keys are built from it;
                              same hash slot)
  ARGV[2] now (ms)
  ARGV[3] levels              "" when every task is at the default level, else one digit per task
  ARGV[4] dedup buckets       the queue's setting, stored when the partition has no records layout yet
  ARGV[5] dedup window (ms)   likewise (records.lua)
  ARGV[6] type                the type of every task of the call, or "" when they differ
  ARGV[7 + 4k .. 10 + 4k]     with a type in ARGV[6]: id, payload digest, envelope JSON, dedup bucket
                              of the id computed for ARGV[4] (records.lua)   (k = 0 .. n-1)
  ARGV[7 + 5k .. 11 + 5k]     without: id, payload digest, envelope JSON, dedup bucket, type
                              (each argument costs the call as much as a small command's lookup:
                              the usual call, of one type, sends no type per task)

  Returns the tasks that were not queued, three entries each:
    k       the task's position in the call (0 .. n-1)
    code    0 = duplicate, -1 = conflict
    status  the known task's current status
  Every task not listed was queued. Most submissions are new ids, so the usual reply is empty.
]]
local base, now, levels, common = ARGV[1], ARGV[2], ARGV[3], ARGV[6]
local DEFAULT, WAKE, FIRST = '5', 'dedupq:wake', 7
-- a call of several types sends each task's type as its fifth argument
local typeEach = common == ''
local STRIDE = typeEach and 5 or 4
-- the per-task loop reads these locals, not the globals, once or more per task
local call, argv = redis.call, ARGV
-- include: records
local time = redis.call('TIME')
local nowMs = time[1] * 1000 + math.floor(time[2] / 1000)
local layout = recordsLayout(base, nowMs, ARGV[4], ARGV[5])
local answers = {}
-- envelopes per level, each in submission order
local envelopes = {}
local queued = 0
for i = FIRST, #argv, STRIDE do
  local k = (i - FIRST) / STRIDE
  local level = levels == '' and DEFAULT or string.sub(levels, k + 1, k + 1)
  local id, digest = argv[i], argv[i + 1]
  local ttype = typeEach and argv[i + 4] or common
  local taskKey = base .. 'task:' .. id
  local known, answer = false, nil
  -- one field first: most ids are new, and Lua pays for each field of a reply
  local status = call('HGET', taskKey, 'status')
  if status then
    local existing = call('HMGET', taskKey, 'digest', 'type')
    local same = (existing[1] == false or existing[1] == digest) and (existing[2] == false or existing[2] == ttype)
    known, answer = status, same and 0 or -1
  else
    local mark = recall(base, layout, id, nowMs, argv[i + 3])
    if mark then
      -- the mark's outcome, looked up only here: most ids have no record
      for outcome, m in pairs(RECORD_MARKS) do
        if m == mark then known = outcome end
      end
      answer = 0
    end
  end
  if known then
    answers[#answers + 1] = k
    answers[#answers + 1] = answer
    answers[#answers + 1] = known
  else
    -- strings, not numbers: Lua would format a number through glibc's floating-point printing
    -- the longest field first: each field reallocates the new hash, which then grows in fewer steps
    call('HSET', taskKey, 'digest', digest, 'enqueuedAt', now, 'type', ttype, 'status', 'queued')
    if level ~= DEFAULT then call('HSET', taskKey, 'priority', level) end
    local list = envelopes[level]
    if not list then
      list = {}
      envelopes[level] = list
    end
    list[#list + 1] = argv[i + 2]
    queued = queued + 1
  end
end
-- one LPUSH per level, in submission order (the first at the right end, where workers take);
-- in slices, as unpack is bounded by Lua's C stack
local others = {}
for level, list in pairs(envelopes) do
  local key = level == DEFAULT and KEYS[1] or KEYS[1] .. ':' .. level
  if level ~= DEFAULT then others[#others + 1] = level end
  for first = 1, #list, 1000 do
    redis.call('LPUSH', key, unpack(list, first, math.min(first + 999, #list)))
  end
end
if #others > 0 then
  redis.call('SADD', base .. 'levels', unpack(others))
  if redis.call('LLEN', KEYS[1]) == 0 then redis.call('LPUSH', KEYS[1], WAKE) end
end
local duplicates = #answers / 3
if queued > 0 then redis.call('HINCRBY', KEYS[2], 'enqueued', queued) end
if duplicates > 0 then redis.call('HINCRBY', KEYS[2], 'rejected_duplicates', duplicates) end
return answers
