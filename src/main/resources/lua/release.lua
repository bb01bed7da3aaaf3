--[[
  release: delete a lock only when it still holds the caller's token.
  Read and written by io.dedupq.lock.LockScripts, nowhere else.

  KEYS[1] lock key
  ARGV[1] token

  Returns 1 when released, 0 when the lock was gone or held by another token.
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
