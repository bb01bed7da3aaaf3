--[[
  create: write a hash only if it does not exist yet (open an account, a campaign).
  Read and written by io.dedupq.tasks.CreateScript, nowhere else.

  KEYS[1] hash key
  ARGV    field, value pairs

  Returns 1 when created, 0 when the key already existed (nothing changed).
]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
