-- wrk script: POST /api/tasks, one no-op task per request, every task id fresh
-- (thread number, a run nonce passed after "--", and a counter), so none is a duplicate.
local threads = 0

function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

function init(args)
  prefix = "w" .. (args[1] or "0") .. "-" .. tid .. "-"
  counter = 0
end

function request()
  counter = counter + 1
  local body = '{"id":"' .. prefix .. counter .. '","type":"noop","payload":{"lid":' .. counter .. '}}'
  return wrk.format("POST", "/api/tasks", { ["Content-Type"] = "application/json" }, body)
end
