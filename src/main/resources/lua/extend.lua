--[[
  extend: give a lock a new TTL only when it still holds the caller's token.
  Read and written by io.dedupq.lock.LockScripts, nowhere else.

  KEYS[1] lock key
  ARGV[1] token
  ARGV[2] new ttl (ms)

  Returns 1 when extended, 0 when the lock was gone or held by another token.
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
