--[[
  debit: move money out of an account once per task id, fenced.
  Read and written by io.dedupq.tasks.payment.DebitScript, nowhere else.

  The applied hash remembers, per task id, the fencing token of the execution that debited.
  A second execution of the same task debits nothing: with a newer token it is told the
  payment is already applied; with an older token it is refused as stale.

  KEYS[1] account hash        <p>:account:{<id>}           currency, balance (minor units)
  KEYS[2] ledger list         <p>:account:{<id>}:ledger    JSON entries, newest first
  KEYS[3] applied hash        <p>:account:{<id>}:applied   task id -> fencing token
  ARGV[1] task id
  ARGV[2] amount in minor units (integer > 0)
  ARGV[3] currency
  ARGV[4] fencing token
  ARGV[5] now (ms)

  Returns 1 debited, 2 already debited by this task, -1 stale fencing token,
  -2 no such account, -3 currency differs from the account's, -4 insufficient funds.
]]
local taskId, amount, fence = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[4])
local seen = tonumber(redis.call('HGET', KEYS[3], taskId))
if seen then
  if fence < seen then return -1 end
  return 2
end
local account = redis.call('HMGET', KEYS[1], 'currency', 'balance')
if not account[1] then return -2 end
if account[1] ~= ARGV[3] then return -3 end
local balance = tonumber(account[2])
if balance < amount then return -4 end
redis.call('HSET', KEYS[1], 'balance', string.format('%d', balance - amount))
redis.call('HSET', KEYS[3], taskId, fence)
redis.call('LPUSH', KEYS[2], cjson.encode({ taskId = taskId, amount = amount, fencingToken = fence,
  at = tonumber(ARGV[5]) }))
return 1
