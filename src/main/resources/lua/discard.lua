--[[
  discard: remove one record from the dead list for good.
  Read and written by io.dedupq.queue.DiscardScript, nowhere else.

  The task itself stays terminal (its dedup record still turns duplicates away until the dedup
  window ends); only the record goes, and the hash no longer points to it.

  KEYS[1] task hash           {p:Q}:task:<id>
  KEYS[2] dead list           {p:Q}:dead
  KEYS[3] stats hash          {p:Q}:stats
  ARGV[1] the dead record, exactly as it is in the dead list

  Returns 1 when removed, 0 when the record was no longer in the dead list.
]]
if redis.call('LREM', KEYS[2], 1, ARGV[1]) == 0 then return 0 end
if redis.call('HGET', KEYS[1], 'deadRecord') == ARGV[1] then
  redis.call('HDEL', KEYS[1], 'deadRecord')
end
redis.call('HINCRBY', KEYS[3], 'discarded', 1)
return 1
