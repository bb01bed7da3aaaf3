--[[
  claim: one turn of a partition's owner on this worker. It moves up to N envelopes from pending
  to this worker's processing list, takes the lock of each task id, and records the outcomes of
  the executions that finished: the slots the finished tasks free pass to the next ones in the
  same call (as BullMQ's moveToFinished returns the next job). Either part may be empty. Read
  and written by io.dedupq.worker.ClaimScript, nowhere else.

  Claims come first for a full Redis: it refuses a script only at its first write that may take
  memory, and never later. Here that is the claim's LMOVE, so a full Redis refuses the whole
  call (OOM) and nothing is claimed; the worker then sends the outcomes on their own, whose
  first write (DEL of the lock) Redis never refuses. A duplicate of a task whose outcome is in
  the same call is dropped either way: its lock is still held when the claim runs.

  Outcomes. Each is recorded only if its execution still owns its task: ownership is the token
  stored in the task hash at claim time. An execution whose lock expired and whose task was
  claimed again by a newer execution is no longer the owner: its copy is removed from its
  processing list and nothing else changes, so it can never overwrite the newer owner's status.
  The owner deletes its lock outright: a claim writes a new lock and the hash's token together,
  so while the hash holds our token the lock is ours or has expired. Anyone else deletes the lock
  only when it still holds their token (the hash may be gone). When the newer owner runs on this
  same worker, the copy in the list is the newer one's and stays. Copies are removed searching
  from the list's tail, where the oldest are. An execution whose task was cancelled while it ran
  (its token is the hash's cancelledBy) has only its copy removed, and is answered 2.

  An outcome may come again: the worker sends a call again when its reply was lost, and, with
  dedupq.durability.replicas, when fewer replicas than asked acknowledged it (WAIT), until a call
  carrying it is acknowledged. Sent again, it changes nothing and is answered alike: the token of
  every recorded outcome is kept as finishedBy (answered 1), a cancelled one's as cancelledBy
  (2), and a refused one's as lostBy (0), so lost_locks counts it once. A recorded outcome is
  answered 0 only when a later execution of the task recorded its own in between (a retry that
  ran meanwhile): then it counts once in lost_locks, and nothing else changes. Each of these
  answers writes its token again, even where it is already: WAIT counts only what its own
  connection wrote, and the call sent again may go on another connection than the one that
  first recorded the outcome. A write after it makes the WAIT that follows cover that too.

  Claims. Copies that must not run are dropped here, never executed:
    - the task reached a terminal state: its hash says so, or, without a hash, its dedup record
      exists                                                              -> duplicate "done"
    - the lock is held (another copy is running right now)               -> duplicate "locked"
    - the task hash is at a later attempt than the copy (a stale copy)   -> duplicate "stale"
  Unparseable envelopes go to the dead list as they are; the wake-up entry 'dedupq:wake' that
  enqueue.lua leaves on KEYS[1] for an idle worker is removed and not counted.

  Controls, checked atomically with the claim: while the queue is paused (<base>paused
  exists) nothing is claimed; with a rate limit (rate=N/W in ARGV[10]: N starts per W ms) the claim
  starts at most as many tasks as the sliding log <base>rate has room for in the window ending now
  (entries are claim times, one per started task; older ones are trimmed here). A claim held by
  either gives a BLMOVE'd copy back to the end of pending it came from, so order is kept and the
  copy's attempt is unchanged.

  Group concurrency (group-concurrency=N in ARGV[10]): a copy whose envelope names a valid "group" starts only
  while fewer than N executions of that group hold their lock. The group's executions are kept
  in the hash <base>group:<g> (token -> id); an entry counts while lock:<id> still holds its
  token, so a slot frees itself when the execution ends or its lock expires (a crashed worker's
  after the lock TTL), and dead entries are removed when met. A copy of a full group is parked:
  moved to the list <base>parked:<g> (its group named in the set <base>parked) instead of
  running, so other groups keep flowing. Every claim first takes parked copies of up to 16
  groups: those named in the set <base>parked-freed, then others picked at random from
  <base>parked, oldest first, as many as their group has free slots (claimParked()), then goes
  on with pending. An outcome that frees a slot of a group with parked copies names the group in
  <base>parked-freed, so the next claim takes its copy however many full groups also wait (a
  random pick could miss it); a group leaves that set once a claim finds it without room or
  copies. A call with such an outcome answers drained 0, so its owner claims again at once instead of blocking
  on BLMOVE (the claim ran before the outcome was recorded). Whatever freed the slot (an
  outcome, an expired lock, the reaper's requeue), the next claim call of any worker takes the
  copy; an idle owner of a queue with a group limit makes one after each BLMOVE that brought
  nothing. The stats field group_waiting counts the parked copies.

  Group rate limit (group-rate=N/W in ARGV[10]: N starts per W ms): a copy of a valid group starts
  only while the group's sliding log <base>group-rate:<g> (token -> claim time, like <base>rate)
  holds fewer than N starts in the window ending now; otherwise it is parked as above (counted
  in group_rate_limited too). Both group limits apply when both are set. The log expires one
  window after the group's last start. Only time frees such a group: the call that meets one
  full (parking a copy, or looking at its parked copies) answers, with held "parked", the ms
  until the soonest of them frees, so an idle owner's BLMOVE ends then and its claim takes the copy.

  A worker claims only while its
  heartbeat is fresh, checked here atomically with the claim: the reaper can then never miss a
  copy that a worker took after it was presumed dead. Such a worker's BLMOVE'd copy goes straight
  back to pending; its outcomes are still recorded. Every time here (the heartbeat cutoff,
  startedAt, finishedAt, retry due times) is the server's (TIME), so a pod's wrong clock cannot
  make its own heartbeat look stale or fresh, or a retry early or late.

  Priorities: each level 0 (lowest) .. 9 (highest) has its own pending list, KEYS[1] for the
  default level 5 and KEYS[1]:<level> for the others; FIFO within each. The set <base>levels
  names the other levels whose lists may hold tasks: whoever pushes onto such a list adds its
  level (enqueue.lua, promote.lua, requeue.lua, revive.lua, a producer of its own), and a claim
  that finds the list gone removes it. When the set is empty, as on a queue that uses no
  priorities, the call takes from KEYS[1] alone: one read of a key that does not exist. (promote.lua
  adds the level of a list that has tasks but is not in the set, so a producer that forgot the
  set is late, never lost.) Otherwise strict takes from the highest list that is not empty; weighted picks the list of each
  copy by turns, a level's share of the turns being its level + 1 among the lists that are not
  empty, so no level with tasks waits for ever. The turn counter {p:Q}:priority-turn, shared by
  the workers, grows by one per pick (INCR). A copy BLMOVE took from KEYS[1] runs with the call
  whatever its level. A producer's own envelope with a level other than the default gets it
  written to the task hash as 'priority', as enqueue.lua does.

  KEYS[1] pending list        {p:Q}:pending
  KEYS[2] processing list     {p:Q}:processing:<worker>
  KEYS[3] fence counter       {p:Q}:fence  (one INCRBY per call reserves its fences)
  KEYS[4] stats hash          {p:Q}:stats
  KEYS[5] dead list           {p:Q}:dead
  KEYS[6] queue's workers     {p:Q}:workers  worker id -> last heartbeat (ms)
  KEYS[7] delayed zset        {p:Q}:delayed
  ARGV[1] key base            "{p:Q}:"  (same slot as KEYS): the script builds from it
          lock:<id>, task:<id>, the dedup records' keys (records.lua), and the keys of the controls, each read only when
          it matters: paused (exists while the queue is paused), levels (see Priorities), rate
          (token -> claim time, ms, of the starts in the window), parked (groups with copies in
          parked:<g>), group:<g>, group-rate:<g>. Every key or argument costs the call about as
          much as a small command, so none is sent that the plain path does not read.
  ARGV[2] worker id (lock token = <worker>:<fence>)
  ARGV[3] dedup buckets: the queue's setting, stored when the partition has no records layout yet (records.lua)
  ARGV[4] max tasks to claim, 0 for none; copies dropped on the way do not count, but at most
          4 x as many copies are moved in one call (a backlog of duplicates ends the call early)
  ARGV[5] lock ttl (ms)
  ARGV[6] heartbeat freshness (ms): a worker whose heartbeat in KEYS[6] is older than this claims nothing
  ARGV[7] an envelope already moved to processing by BLMOVE (it counts toward ARGV[4]), or ""
  ARGV[8] dedup window (ms): how long the dedup record counts
  ARGV[9] result retention (ms, at most the window): how long a finished task's hash stays
  ARGV[10] the queue's controls, "" for none, else space-separated name=value:
          rate=<N>/<W ms>            at most N starts per sliding window of W ms
          group-concurrency=<N>      at most N running executions per group
          group-rate=<N>/<W ms>      at most N starts per group per sliding window of W ms
          order=weighted             priority order between levels (strict when not named)
  ARGV[11 ..] the outcomes, one after the other, each with what its kind needs:
    id, bucket, envelope, token, outcome, then
      succeeded: result                    (result JSON, or "" for none)
      retrying:  error, next, delay        (the next envelope, attempt + 1; in how long it is due, ms)
      failed:    error, deadRecord         (the dead-letter record)
      dead:      error, deadRecord
    (bucket: the id's dedup bucket computed for ARGV[3], records.lua; envelope: as claimed, removed
    from the processing list; token: lock token of that execution).
    Every argument costs Redis an allocation each way, so an outcome sends only those its kind uses

  Returns one flat array (a nested one costs Redis's reply about as much as a command):
    { registered, drained, deadLettered, held reason, held wait, n, recorded x n, m, dropped x m, claim... }
    registered    1, or 0 when the heartbeat was stale and nothing was claimed
    drained       1 when pending ran empty during the claim (or nothing was asked for), unless an
                  outcome freed a group slot that a parked copy waits for
    deadLettered  how many unparseable envelopes went to the dead list
    held          reason, wait: reason "" (claims not held), "paused", or "rate" (the window
                  is full: wait is the ms until its oldest start leaves it), or "parked" (not
                  held, but pending is drained while copies are parked: look again after BLMOVE's
                  wait, and at the latest after wait ms when wait > 0: then a group whose rate
                  window is full frees by then). A call that the full
                  window stopped short of its ARGV[4] counts rate_limited in the stats hash
    recorded      n = the number of outcomes, then one entry per outcome, in order: 1 recorded, 0 that
                  execution had lost its task, 2 the task was cancelled while it ran (cancel.lua):
                  the outcome is discarded, its copy removed
    dropped       m = the number of dropped copies, then (type, reason) per dropped copy, reason
                  done | locked | stale
    claim...      then (id, envelope, token, fence, type) for every claimed task
]]
local base, worker, limit, ttl = ARGV[1], ARGV[2], tonumber(ARGV[4]), ARGV[5]
local moved, window, retention = ARGV[7], tonumber(ARGV[8]), ARGV[9]
-- include: records
local FINISHED = { succeeded = true, failed = true, dead = true, cancelled = true }
-- arguments after id, bucket, envelope, token and outcome, per outcome
local EXTRAS = { succeeded = 1, retrying = 3, failed = 2, dead = 2 }
local time = redis.call('TIME')
local nowMs = time[1] * 1000 + math.floor(time[2] / 1000)
local now = string.format('%d', nowMs)
-- the partition's records layout, read when the call first needs it
local layout
local function records()
  layout = layout or recordsLayout(base, nowMs, ARGV[3], window)
  return layout
end
local prefix = worker .. ':'
local counts = {}

local function count(field, n)
  counts[field] = (counts[field] or 0) + (n or 1)
end

-- controls ------------------------------------------------------------------------------------

local rateMax, rateWindow, groupMax, groupRateMax, groupRateWindow, order = 0, 0, 0, 0, 0, 'strict'

-- what a call makes, functions, tables, strings, it pays for (and Redis's Lua collector after it):
-- the plain path makes only what it uses
if ARGV[10] ~= '' then
  -- N/W: N per window of W ms
  local function perWindow(value)
    local n, w = string.match(value, '^(%d+)/(%d+)$')
    return tonumber(n), tonumber(w)
  end
  for name, value in string.gmatch(ARGV[10], '(%S+)=(%S+)') do
    if name == 'rate' then rateMax, rateWindow = perWindow(value)
    elseif name == 'group-concurrency' then groupMax = tonumber(value)
    elseif name == 'group-rate' then groupRateMax, groupRateWindow = perWindow(value)
    elseif name == 'order' then order = value
    else return redis.error_reply('claim.lua: unknown control ' .. name) end
  end
end
local pausedKey, levelsKey = base .. 'paused', base .. 'levels'
local rateKey = rateMax > 0 and base .. 'rate'
-- why claims are held, and for how long (the reply's held)
local heldBy, heldFor = '', 0

-- ms until the oldest start of the sliding log at key leaves its window (at least 1)
local windowWait
if rateMax > 0 or groupRateMax > 0 then
  function windowWait(key, windowMs)
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    return math.max(1, tonumber(oldest[2]) + windowMs - nowMs)
  end
end

-- how many tasks this call may start under the rate limit: 0 while its window is full
local rateRoom
if rateMax > 0 then
  function rateRoom()
    redis.call('ZREMRANGEBYSCORE', rateKey, '-inf', string.format('%d', nowMs - rateWindow))
    local room = rateMax - redis.call('ZCARD', rateKey)
    if room <= 0 then
      heldBy, heldFor = 'rate', windowWait(rateKey, rateWindow)
      count('rate_limited')
    end
    return math.max(0, room)
  end
end

-- outcomes ------------------------------------------------------------------------------------

-- a slot an outcome freed has parked copies to take (leaveGroup, with a group limit)
local waiting, leaveGroup = false, nil

-- bucket: the id's dedup bucket as the pod computed it. detail: succeeded: the result JSON or "";
-- otherwise the error. nextRecord: retrying: the next envelope; failed, dead: the dead-letter
-- record. delay: retrying: in how long it is due (ms)
local function record(id, bucket, envelope, token, outcome, detail, nextRecord, delay)
  local lockKey, taskKey = base .. 'lock:' .. id, base .. 'task:' .. id
  local owner = redis.call('HMGET', taskKey, 'token', 'finishedBy')
  if owner[1] ~= token then
    -- read only here: the owner's outcome, nearly every one, pays for neither field
    local other = redis.call('HMGET', taskKey, 'cancelledBy', 'lostBy')
    if other[1] == token then
      -- cancelled while it ran (cancel.lua): the task is terminal already; only the copy goes
      redis.call('LREM', KEYS[2], '-1', envelope)
      redis.call('HSET', taskKey, 'cancelledBy', token)
      return 2
    end
    -- the lock is ours only if it still carries our token (the task hash may be gone)
    if redis.call('GET', lockKey) == token then
      redis.call('DEL', lockKey)
    end
    if owner[2] == token then
      redis.call('HSET', taskKey, 'finishedBy', token)
      return 1
    end
    if not owner[1] or string.sub(owner[1], 1, #prefix) ~= prefix then
      redis.call('LREM', KEYS[2], '-1', envelope)
    end
    -- once per execution, however often its outcome is sent
    if other[2] ~= token then count('lost_locks') end
    -- a vanished hash is not made again: it would never expire
    if redis.call('EXISTS', taskKey) == 1 then redis.call('HSET', taskKey, 'lostBy', token) end
    return 0
  end
  redis.call('DEL', lockKey)
  redis.call('LREM', KEYS[2], '-1', envelope)
  if groupMax > 0 then leaveGroup(envelope, token) end

  if outcome == 'retrying' then
    local dueAt = string.format('%d', nowMs + tonumber(delay))
    redis.call('HSET', taskKey, 'finishedBy', token, 'status', 'retrying', 'attempt', cjson.decode(nextRecord).attempt,
      'lastError', detail, 'nextAttemptAt', dueAt, 'finishedAt', now)
    redis.call('HDEL', taskKey, 'token')
    redis.call('ZADD', KEYS[7], dueAt, nextRecord)
    count('retried')
    return 1
  end

  if outcome ~= 'succeeded' then
    redis.call('HSET', taskKey, 'finishedBy', token, 'status', outcome, 'finishedAt', now, 'lastError', detail,
      'deadRecord', nextRecord)
    redis.call('LPUSH', KEYS[5], nextRecord)
  elseif detail ~= '' then
    redis.call('HSET', taskKey, 'finishedBy', token, 'status', outcome, 'finishedAt', now, 'result', detail)
  else
    redis.call('HSET', taskKey, 'finishedBy', token, 'status', outcome, 'finishedAt', now)
  end
  redis.call('HDEL', taskKey, 'token', 'nextAttemptAt')
  remember(base, records(), id, RECORD_MARKS[outcome], nowMs, window, bucket)
  redis.call('PEXPIRE', taskKey, retention)
  count(outcome)
  return 1
end

-- claims ----------------------------------------------------------------------------------------

local claimed, dropped, taken, dead, started = {}, {}, 0, 0, 0

-- a non-negative integer below 2^53, or nil: anything else a producer sends is not trusted
local function whole(value)
  local n = tonumber(value)
  if n and n == n and n >= 0 and n <= 9007199254740992 and n % 1 == 0 then return n end
  return nil
end

local function valid_id(id)
  return type(id) == 'string' and #id >= 1 and #id <= 128 and string.match(id, '^[%w][%w%._:%-]*$') ~= nil
end

-- fences for this call are reserved with one INCRBY, for as many locks as it may still take, at
-- its first lock: one call however many tasks it claims; the numbers it does not use are skipped
-- (fences only have to grow)
local fence

local function nextFence()
  if not fence then
    fence = redis.call('INCRBY', KEYS[3], string.format('%d', limit - taken)) - (limit - taken)
  end
  return fence + 1
end

-- counts and other numbers go to redis.call as text: Lua would format them with '%.14g', costly in glibc
local function drop(raw, taskType, reason)
  redis.call('LREM', KEYS[2], '1', raw)
  count('skipped_' .. reason)
  dropped[#dropped + 1] = taskType
  dropped[#dropped + 1] = reason
end

local grouped = groupMax > 0 or groupRateMax > 0
local parkedKey = grouped and base .. 'parked'
-- groups whose slot an outcome freed while they had parked copies: the next claim looks at them
-- first, since a random pick among many parked groups, the others full, could miss them
local freedKey = grouped and base .. 'parked-freed'
-- made only when a group limit is set: every function a call makes costs it, the more so the
-- more of the call's locals the function uses, and the plain path uses none of these
local groupRunning, groupRoom, groupOf, joinGroup, claimParked
-- ms until the soonest rate-full group met in this call frees, 0 when none was met
local parkedWait = 0
-- a claim looks at this many groups with parked copies
local PARKED_GROUPS_PER_CALL = 16

if grouped then
  -- executions of group g that still hold their lock; entries of the others are removed
  function groupRunning(g)
    local key = base .. 'group:' .. g
    local entries = redis.call('HGETALL', key)
    local n = 0
    for k = 1, #entries, 2 do
      if redis.call('GET', base .. 'lock:' .. entries[k + 1]) == entries[k] then
        n = n + 1
      else
        redis.call('HDEL', key, entries[k])
      end
    end
    return n
  end

  -- how many more copies of group g may start now under both group limits, and whether its rate
  -- window is what stops it (then parkedWait learns when that frees)
  function groupRoom(g)
    local room = groupMax > 0 and groupMax - groupRunning(g) or math.huge
    if groupRateMax == 0 or room <= 0 then return room, false end
    local key = base .. 'group-rate:' .. g
    redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', nowMs - groupRateWindow))
    room = math.min(room, groupRateMax - redis.call('ZCARD', key))
    if room > 0 then return room, false end
    local wait = windowWait(key, groupRateWindow)
    if parkedWait == 0 or wait < parkedWait then parkedWait = wait end
    return room, true
  end

  -- the copy's group when it is limited and full: it is parked and nil returned; else the group to join (or nil)
  function groupOf(raw, env)
    if type(env.group) ~= 'string' or not valid_id(env.group) then return nil, false end
    local room, rateFull = groupRoom(env.group)
    if room > 0 then return env.group, false end
    redis.call('LREM', KEYS[2], '1', raw)
    redis.call('LPUSH', base .. 'parked:' .. env.group, raw)
    redis.call('SADD', parkedKey, env.group)
    count('group_waiting')
    if rateFull then count('group_rate_limited') end
    return nil, true
  end

  -- a started execution takes its group's slot and enters its group's rate log
  function joinGroup(g, token, id)
    if groupMax > 0 then redis.call('HSET', base .. 'group:' .. g, token, id) end
    if groupRateMax > 0 then
      local key = base .. 'group-rate:' .. g
      redis.call('ZADD', key, now, token)
      -- the log outlives no window: an idle group keeps no key
      redis.call('PEXPIRE', key, string.format('%d', groupRateWindow))
    end
  end
end

local function take(raw)
  local ok, env = pcall(cjson.decode, raw)
  if not ok or type(env) ~= 'table' or not valid_id(env.id) or type(env.type) ~= 'string' then
    redis.call('LREM', KEYS[2], '1', raw)
    redis.call('LPUSH', KEYS[5], cjson.encode({ id = cjson.null, error = 'unparseable envelope',
      failedAt = tonumber(now), envelope = raw }))
    dead = dead + 1
    return
  end
  local attempt = whole(env.attempt) or 0
  local taskKey = base .. 'task:' .. env.id
  local lockKey = base .. 'lock:' .. env.id
  local known = redis.call('HMGET', taskKey, 'attempt', 'attempts', 'status')
  -- the hash says whether the task is finished while it exists (it never outlives the record):
  -- only a copy without one, pushed by a producer or of a task past its retention, reads the record
  if FINISHED[known[3]] or (not known[3] and recall(base, records(), env.id, nowMs)) then
    return drop(raw, env.type, 'done')
  end
  local current = tonumber(known[1])
  if current and current > attempt then
    return drop(raw, env.type, 'stale')
  end
  local group, parked
  if grouped then
    group, parked = groupOf(raw, env)
    if parked then return end
  end
  local candidate = nextFence()
  -- '%d', not '%.0f' or Lua's own number-to-string: glibc's floating-point formatting costs several times more
  local token = prefix .. string.format('%d', candidate)
  if not redis.call('SET', lockKey, token, 'NX', 'PX', ttl) then
    return drop(raw, env.type, 'locked')
  end
  fence = candidate
  if group then joinGroup(group, token, env.id) end
  local attemptText = attempt == 0 and '0' or string.format('%d', attempt)
  if known[3] then
    -- enqueue.lua does not write attempts 0
    local attempts = tonumber(known[2]) or 0
    -- the token names the worker too (<worker>:<fence>)
    redis.call('HSET', taskKey, 'status', 'running', 'attempt', attemptText, 'token', token, 'startedAt', now,
      'attempts', string.format('%d', attempts + 1))
  else
    -- pushed straight onto the list by a producer (every hash has a status): the hash starts here
    local enqueuedAt = whole(env.enqueuedAt)
    redis.call('HSET', taskKey, 'type', env.type, 'enqueuedAt', enqueuedAt and string.format('%d', enqueuedAt) or now,
      'status', 'running',
      'attempt', attemptText, 'token', token, 'startedAt', now, 'attempts', '1')
    local level = env.priority
    if type(level) == 'number' and level % 1 == 0 and level >= 0 and level <= 9 and level ~= 5 then
      redis.call('HSET', taskKey, 'priority', string.format('%d', level))
    end
  end
  claimed[#claimed + 1] = env.id
  claimed[#claimed + 1] = raw
  claimed[#claimed + 1] = token
  claimed[#claimed + 1] = candidate
  claimed[#claimed + 1] = env.type
  taken = taken + 1
  started = started + 1
  -- a start under the rate limit: its claim time enters the log
  if rateMax > 0 then redis.call('ZADD', rateKey, now, token) end
end

-- priorities ----------------------------------------------------------------------------------

local WAKE = 'dedupq:wake'
-- one read for the plain path, when the call claims: the queue is not paused, and the set names
-- no other level (then the call takes from KEYS[1] alone)
local gated = (limit > 0 or moved ~= '') and redis.call('EXISTS', pausedKey, levelsKey) > 0
-- the next copy from the lists of the levels, moved to KEYS[2], or nil when every list is empty
local nextCopy

if gated then
  -- the levels other than the default that the set may name (anything else a producer adds is removed)
  local OTHER_LEVEL = '^[0-46-9]$'

  -- the pending lists with tasks, highest level first, each with its weight (level + 1); a level
  -- whose list is gone leaves the set
  local function waitingLists()
    local levels = { '5' }
    for _, level in ipairs(redis.call('SMEMBERS', levelsKey)) do
      if string.match(level, OTHER_LEVEL) then levels[#levels + 1] = level else redis.call('SREM', levelsKey, level) end
    end
    -- one digit each: text order is level order
    table.sort(levels, function(a, b) return a > b end)
    local lists = {}
    for _, level in ipairs(levels) do
      local key = level == '5' and KEYS[1] or KEYS[1] .. ':' .. level
      if redis.call('EXISTS', key) == 1 then
        lists[#lists + 1] = { key = key, weight = tonumber(level) + 1 }
      elseif level ~= '5' then
        redis.call('SREM', levelsKey, level)
      end
    end
    return lists
  end

  -- weighted: the list whose turn it is, among those still with tasks; one turn per pick, never
  -- skipped, so that every position of the round comes up
  local function weightedPick(lists)
    local total = 0
    for _, list in ipairs(lists) do total = total + list.weight end
    local at = redis.call('INCR', base .. 'priority-turn') % total
    for i, list in ipairs(lists) do
      if at < list.weight then return i end
      at = at - list.weight
    end
  end

  local lists
  function nextCopy()
    lists = lists or waitingLists()
    while #lists > 0 do
      local i = (order == 'weighted' and #lists > 1) and weightedPick(lists) or 1
      local raw = redis.call('LMOVE', lists[i].key, KEYS[2], 'RIGHT', 'LEFT')
      if raw then return raw end
      table.remove(lists, i)
    end
    return nil
  end
end

if grouped then
  -- parked copies of groups with free slots are claimed first, oldest first, straight from their list
  function claimParked(room, movedCount)
    -- freed groups first, then random ones, 16 in all: each group looked at costs several commands
    local groups = redis.call('SRANDMEMBER', freedKey, PARKED_GROUPS_PER_CALL)
    local freed = #groups
    if freed < PARKED_GROUPS_PER_CALL then
      for _, g in ipairs(redis.call('SRANDMEMBER', parkedKey, PARKED_GROUPS_PER_CALL - freed)) do groups[#groups + 1] = g end
    end
    for i, g in ipairs(groups) do
      local parked = base .. 'parked:' .. g
      local free = groupRoom(g)
      while free > 0 and taken < limit and started < room do
        local raw = redis.call('LMOVE', parked, KEYS[2], 'RIGHT', 'LEFT')
        if not raw then break end
        count('group_waiting', -1)
        take(raw)
        free, movedCount = free - 1, movedCount + 1
      end
      local gone = redis.call('EXISTS', parked) == 0
      if gone then redis.call('SREM', parkedKey, g) end
      -- a freed group stays named while it has both copies and room this call had no claims left for
      if i <= freed and (gone or free <= 0) then redis.call('SREM', freedKey, g) end
    end
    return movedCount
  end

  -- a finished execution's group entry goes now, not when next met, so a group's hash ends with
  -- its last task (waiting: a freed slot has parked copies to take)
  function leaveGroup(envelope, token)
    local ok, env = pcall(cjson.decode, envelope)
    if ok and type(env) == 'table' and type(env.group) == 'string' and valid_id(env.group) then
      redis.call('HDEL', base .. 'group:' .. env.group, token)
      if redis.call('EXISTS', base .. 'parked:' .. env.group) == 1 then
        waiting = true
        redis.call('SADD', freedKey, env.group)
      end
    end
  end
end

-- returns registered (1, or 0 for a stale heartbeat) and drained (1 when pending ran empty)
local function claimTasks()
  if limit == 0 and moved == '' then return 1, 1 end
  local beat = tonumber(redis.call('ZSCORE', KEYS[6], worker))
  if not beat or beat < nowMs - tonumber(ARGV[6]) then
    if moved ~= '' and redis.call('LREM', KEYS[2], 1, moved) == 1 then
      redis.call('RPUSH', KEYS[1], moved)
    end
    return 0, 0
  end
  local room = limit
  if gated and redis.call('EXISTS', pausedKey) == 1 then
    heldBy, room = 'paused', 0
  elseif rateMax > 0 then
    room = rateRoom()
  end
  if room == 0 then
    if moved ~= '' and redis.call('LREM', KEYS[2], 1, moved) == 1 then
      redis.call('RPUSH', KEYS[1], moved)
    end
    return 1, 0
  end
  local movedCount = 0
  -- the BLMOVE'd copy may have been requeued by the reaper meanwhile (this worker was paused):
  -- then it is no longer ours to run
  if moved == WAKE then
    -- a wake-up, not a task: the slot it held claims from the lists
    redis.call('LREM', KEYS[2], '1', WAKE)
    movedCount = 1
  elseif moved ~= '' then
    if redis.call('LPOS', KEYS[2], moved) then take(moved) end
    -- it had its slot, whatever came of it
    movedCount, taken = 1, 1
  end
  if grouped then movedCount = claimParked(room, movedCount) end
  while taken < limit and started < room and movedCount < 4 * limit do
    local raw
    if gated then raw = nextCopy() else raw = redis.call('LMOVE', KEYS[1], KEYS[2], 'RIGHT', 'LEFT') end
    if not raw then return 1, 1 end
    if raw == WAKE then redis.call('LREM', KEYS[2], '1', WAKE) else take(raw) end
    movedCount = movedCount + 1
  end
  if started > 0 and rateMax > 0 then
    -- the log outlives no window: an idle queue keeps no key
    redis.call('PEXPIRE', rateKey, string.format('%d', rateWindow))
  end
  if rateMax > 0 and started >= room then
    -- the window is full now: the owner waits instead of asking again at once
    heldBy, heldFor = 'rate', windowWait(rateKey, rateWindow)
    if taken < limit then count('rate_limited') end
  end
  return 1, 0
end

-- the call ------------------------------------------------------------------------------------

local registered, drained = claimTasks()
if dead > 0 then count('unparseable', dead) end

local recorded = {}
local i = 11
while i <= #ARGV do
  local outcome, extras = ARGV[i + 4], EXTRAS[ARGV[i + 4]]
  recorded[#recorded + 1] = record(ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], outcome, ARGV[i + 5],
    extras > 1 and ARGV[i + 6] or '', extras > 2 and ARGV[i + 7] or '0')
  i = i + 5 + extras
end

-- a slot an outcome freed has a parked copy waiting: the owner must ask again, not block on BLMOVE
if waiting then drained = 0 end
-- pending is empty but copies are parked: the owner's BLMOVE wait ends with a claim call, which
-- takes those whose slot freed without an outcome here (an expired lock, another pod's outcome),
-- and no later than parkedWait those that only time frees
if grouped and drained == 1 and heldBy == '' and redis.call('EXISTS', parkedKey) == 1 then
  heldBy, heldFor = 'parked', parkedWait
end

for field, n in pairs(counts) do
  redis.call('HINCRBY', KEYS[4], field, string.format('%d', n))
end
local reply = { registered, drained, dead, heldBy, heldFor, #recorded }
for i = 1, #recorded do reply[#reply + 1] = recorded[i] end
reply[#reply + 1] = #dropped / 2
for i = 1, #dropped do reply[#reply + 1] = dropped[i] end
for i = 1, #claimed do reply[#reply + 1] = claimed[i] end
return reply
