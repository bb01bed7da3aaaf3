-- wrk script: POST /api/tasks/batch with BATCH (default 100) fresh no-op tasks per request
-- (ids from thread number, a run nonce passed after "--", and a counter).
local threads = 0

function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

function init(args)
  prefix = "w" .. (args[1] or "0") .. "-" .. tid .. "-"
  size = tonumber(args[2] or "100")
  counter = 0
end

function request()
  local tasks = {}
  for i = 1, size do
    counter = counter + 1
    tasks[i] = '{"id":"' .. prefix .. counter .. '","type":"noop","payload":{"lid":' .. counter .. '}}'
  end
  local body = '{"tasks":[' .. table.concat(tasks, ",") .. ']}'
  return wrk.format("POST", "/api/tasks/batch", { ["Content-Type"] = "application/json" }, body)
end
