-- wrk script: enqueue no-op tasks with fresh ids (thread number, a run nonce and a counter).
-- Arguments after "--": <nonce> <tasks per request>. 1 task per request: POST /api/tasks;
-- more: POST /api/tasks/batch with that many tasks.
local threads = 0

function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

function init(args)
  prefix = "w" .. (args[1] or "0") .. "-" .. tid .. "-"
  size = tonumber(args[2] or "1")
  counter = 0
end

local function task()
  counter = counter + 1
  return '{"id":"' .. prefix .. counter .. '","type":"noop","payload":{"lid":' .. counter .. '}}'
end

function request()
  local headers = { ["Content-Type"] = "application/json" }
  if size == 1 then
    return wrk.format("POST", "/api/tasks", headers, task())
  end
  local tasks = {}
  for i = 1, size do
    tasks[i] = task()
  end
  return wrk.format("POST", "/api/tasks/batch", headers, '{"tasks":[' .. table.concat(tasks, ",") .. ']}')
end
