--[[
  progress: record how far a running execution is, only while it still owns its task.
  Read and written by io.dedupq.worker.ProgressScript, nowhere else.

  Fenced like an outcome: the task hash's token is the owner's (claim.lua writes it at claim time
  and removes it when the outcome is recorded or the task is cancelled), so an execution that lost
  its lock, or whose task finished or was cancelled, writes nothing. progressAt is Redis's time.

  KEYS[1] task hash           {p:Q}:task:<id>
  ARGV[1] token               the execution's lock token, <worker>:<fence>
  ARGV[2] percent             0-100 (checked by the caller)
  ARGV[3] note                "" for none (length capped by the caller)

  Returns 1 when written, 0 when the execution does not own the task.
]]
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
local time = redis.call('TIME')
redis.call('HSET', KEYS[1], 'progress', ARGV[2], 'progressNote', ARGV[3],
  'progressAt', string.format('%d', time[1] * 1000 + math.floor(time[2] / 1000)))
return 1
