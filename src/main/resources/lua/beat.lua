--[[
  beat: stamp a worker's heartbeat with the Redis server's clock, never the pod's, so that a pod
  whose clock runs behind is not presumed dead while it runs (claim.lua and requeue.lua judge
  heartbeats against the same clock).
  Called only through io.dedupq.worker.BeatScript.

  KEYS[1] workers zset        {p:Q}:workers (one queue partition) or dedupq:workers (all workers)
  ARGV[1] worker id

  Returns the score written: the server's time (ms).
]]
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZADD', KEYS[1], string.format('%d', now), ARGV[1])
return now
