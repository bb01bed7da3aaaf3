--[[
  recall: the outcome a finished task id's dedup record holds while its dedup window lasts
  (records.lua). Read by io.dedupq.queue.RecallScript, nowhere else; the API answers with it once
  the task's hash is gone with its result retention.

  KEYS[1] records layout      {p:Q}:records  (the dedup records' keys are built from ARGV[1])
  ARGV[1] key base            "{p:Q}:"
  ARGV[2] task id

  Returns the record's mark (1 succeeded, 2 failed, 3 dead, 4 cancelled), or nil when the id is
  not remembered.
]]
-- include: records
local time = redis.call('TIME')
local nowMs = time[1] * 1000 + math.floor(time[2] / 1000)
return recall(ARGV[1], recordsLayout(ARGV[1], nowMs), ARGV[2], nowMs)
