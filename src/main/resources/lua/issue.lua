--[[
  issue: hand out one voucher code from a campaign's stock once per task id, fenced.
  Read and written by io.dedupq.tasks.voucher.IssueScript, nowhere else.

  KEYS[1] campaign hash       <p>:campaign:{<id>}           stock, value, currency
  KEYS[2] voucher list        <p>:campaign:{<id>}:vouchers  JSON entries, newest first
  KEYS[3] issued hash         <p>:campaign:{<id>}:issued    task id -> fencing token
  KEYS[4] code set            <p>:campaign:{<id>}:codes     every code handed out
  ARGV[1] task id
  ARGV[2] customer id
  ARGV[3] candidate code (random, made by the caller)
  ARGV[4] fencing token

  Returns {1, code} issued, {2, ""} already issued by this task, {-1, ""} stale fencing token,
  {-2, ""} no such campaign, {-5, ""} out of stock, {-6, ""} candidate code already taken.
]]
local taskId, code, fence = ARGV[1], ARGV[3], tonumber(ARGV[4])
local seen = tonumber(redis.call('HGET', KEYS[3], taskId))
if seen then
  if fence < seen then return { -1, '' } end
  return { 2, '' }
end
local stock = tonumber(redis.call('HGET', KEYS[1], 'stock'))
if not stock then return { -2, '' } end
if stock <= 0 then return { -5, '' } end
if redis.call('SADD', KEYS[4], code) == 0 then return { -6, '' } end
redis.call('HINCRBY', KEYS[1], 'stock', -1)
redis.call('HSET', KEYS[3], taskId, fence)
redis.call('LPUSH', KEYS[2], cjson.encode({ code = code, taskId = taskId, customerId = ARGV[2] }))
return { 1, code }
