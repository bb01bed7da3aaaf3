--[[
  records (included where a script says "-- include: records"; io.dedupq.queue.LuaScript does it):
  the dedup records, which remember a finished task id and its outcome for the dedup window.

  Many ids share a key: the hash <base>records:<b>, whose field is the id and whose value is
  expiresAt * 10 + mark (expiresAt: ms by Redis's clock; mark: 1 succeeded, 2 failed, 3 dead,
  4 cancelled). b is the first 32 bits of the id's SHA-1 modulo the partition's bucket count.
  A bucket of at most 128 short ids stays in Redis's compact listpack encoding, about 35 bytes
  an id, where a key of its own per id took about 140: that is why ids share keys.

  The bucket count is the partition's for good: the hash <base>records holds it as 'buckets',
  written by the first script that needs it from the queue's dedupq.queues.<q>.dedup-buckets;
  a pod configured otherwise later uses the stored count, as a lookup in another bucket would
  miss. Its 'legacyUntil' (ms) is, when the partition had a stats hash already at that moment (a
  queue used by a version that wrote one key per id, <base>done:<id>), the end of one dedup
  window; until then a lookup that misses reads that key too.

  A record counts only until its expiresAt, so the window is exact. Fields have no TTL of their
  own, so each write keeps its bucket alive: a bucket's TTL is never shorter than any of its
  records' expiry, and when a write finds it under one window (no write has renewed it for a
  window) the write first removes the bucket's expired records and sets it to two windows.
  A bucket is thus pruned at most once a window, and a record stays at most about two windows.

  A caller that knows an id may pass its bucket, computed by the pod (io.dedupq.queue.RecordBucket)
  with the count it was given as seed: Redis runs every script on one thread, a pod's work scales
  with the pods. The bucket is used only while that count is the stored one; otherwise, and for
  an id the pod never saw (a copy LPUSHed by a producer), the script computes it.
]]
-- each terminal outcome's mark (the done markers of that earlier version held the names)
local RECORD_MARKS = { succeeded = 1, failed = 2, dead = 3, cancelled = 4 }

-- the partition's layout {buckets, legacyUntil, seeded}; made from seed (the pod's bucket count)
-- and window when it does not exist yet and seed is given, else nil. seeded: the stored count is
-- seed, so buckets the pod computed hold
local function recordsLayout(base, nowMs, seed, window)
  local key = base .. 'records'
  local stored = redis.call('HMGET', key, 'buckets', 'legacyUntil')
  if stored[1] then
    local buckets = tonumber(stored[1])
    return { buckets = buckets, legacyUntil = tonumber(stored[2]) or 0, seeded = buckets == tonumber(seed) }
  end
  if not seed then return nil end
  local buckets = math.max(1, math.floor(tonumber(seed)))
  local legacyUntil = redis.call('EXISTS', base .. 'stats') == 1 and nowMs + tonumber(window) or 0
  redis.call('HSET', key, 'buckets', string.format('%d', buckets), 'legacyUntil', string.format('%d', legacyUntil))
  return { buckets = buckets, legacyUntil = legacyUntil, seeded = buckets == tonumber(seed) }
end

-- the key of id's bucket; given: the bucket the pod computed for id, or nil
local function recordsBucket(base, layout, id, given)
  if given and layout.seeded then return base .. 'records:' .. given end
  return base .. 'records:' .. string.format('%d', tonumber(string.sub(redis.sha1hex(id), 1, 8), 16) % layout.buckets)
end

-- the mark (1..4) of id's record while its window lasts, else nil; layout may be nil (no records yet)
local function recall(base, layout, id, nowMs, given)
  if layout then
    local value = tonumber(redis.call('HGET', recordsBucket(base, layout, id, given), id))
    if value and math.floor(value / 10) > nowMs then return value % 10 end
    if layout.legacyUntil <= nowMs then return nil end
  end
  local mark = redis.call('GET', base .. 'done:' .. id)
  return mark and (tonumber(mark) or RECORD_MARKS[mark]) or nil
end

-- records id's outcome (mark 1..4) for window ms from nowMs
local function remember(base, layout, id, mark, nowMs, window, given)
  local key = recordsBucket(base, layout, id, given)
  local ttl = redis.call('PTTL', key)
  redis.call('HSET', key, id, string.format('%d', (nowMs + window) * 10 + mark))
  if ttl < window then
    if ttl ~= -2 then
      local fields, expired = redis.call('HGETALL', key), {}
      for i = 1, #fields, 2 do
        local value = tonumber(fields[i + 1])
        if not value or math.floor(value / 10) <= nowMs then expired[#expired + 1] = fields[i] end
      end
      for first = 1, #expired, 1000 do
        redis.call('HDEL', key, unpack(expired, first, math.min(first + 999, #expired)))
      end
    end
    redis.call('PEXPIRE', key, string.format('%d', 2 * window))
  end
end

-- id is no longer remembered (a revived task runs again)
local function forget(base, layout, id)
  if layout then redis.call('HDEL', recordsBucket(base, layout, id), id) end
  redis.call('DEL', base .. 'done:' .. id)
end
