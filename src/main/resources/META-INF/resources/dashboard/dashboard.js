// dedupq dashboard: polls the HTTP API and renders it. No build step, no libraries.
// Every value from the server is written with textContent, never as HTML.
"use strict";

const POLL_MS = 2000;
const WINDOW_MS = 5 * 60 * 1000;
const KEY_STORE = "dedupq.apiKey";
const samples = []; // {t, enqueued, finished, failed}: totals over all queues at time t

function apiKey() {
  return sessionStorage.getItem(KEY_STORE) || "";
}

/** fetch with the operator's API key (when one was entered); problem+json turns into an Error. */
async function api(method, path) {
  const headers = { Accept: "application/json" };
  if (apiKey()) headers["X-API-Key"] = apiKey();
  const response = await fetch(path, { method, headers });
  if (!response.ok) {
    let detail = response.statusText;
    try { detail = (await response.json()).detail || detail; } catch (ignored) { /* not JSON */ }
    throw new Error(response.status + " " + detail);
  }
  return response.status === 204 ? null : response.json();
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

/** A cell of a fixed-layout table: a value too long for its column ends in an ellipsis, the whole of it in the title. */
function cut(text, className) {
  const cell = el("td", text, className);
  cell.title = cell.textContent;
  return cell;
}

function time(ms) {
  return ms ? new Date(Number(ms)).toLocaleString() : "—";
}

function setStatus(state, text) {
  const status = document.getElementById("status");
  status.dataset.state = state;
  status.textContent = text;
}

const QUEUE_COLUMNS = ["pending", "processing", "delayed", "dead", "limits", "enqueued", "succeeded", "failed", "retried",
  "duplicatesSkipped", "cancelled", "revived", "discarded"];

/** A configured duration in ms, in the largest unit that writes it whole: 30000 → "30s". */
function duration(ms) {
  const unit = [[3600000, "h"], [60000, "m"], [1000, "s"]].find(([size]) => ms % size === 0);
  return unit ? ms / unit[0] + unit[1] : ms + "ms";
}

/**
 * The limits the queue runs under (q.controls) and how much of each is in use now, one short line
 * each, none for a limit that is not set. A line is a list of parts that are never broken; the
 * narrow cell wraps between them.
 */
function limits(q) {
  const controls = q.controls || {};
  const lines = [];
  if (controls.rateLimit) {
    const [starts, window] = controls.rateLimit.split("/");
    lines.push(q.rateLimited > 0 ? ["rate " + q.rateWindowStarts + "/" + starts, "per " + window + " ·", "held " + q.rateLimited]
      : ["rate " + q.rateWindowStarts + "/" + starts, "per " + window]);
  }
  if (controls.groupConcurrency > 0) {
    lines.push(q.groupWaiting > 0 ? ["groups ≤" + controls.groupConcurrency + " ·", q.groupWaiting + " waiting",
      "in " + q.waitingGroups + (q.waitingGroups === 1 ? " group" : " groups")] : ["groups ≤" + controls.groupConcurrency]);
  }
  if (controls.groupRateLimit) {
    const [starts, window] = controls.groupRateLimit.split("/");
    const limit = ["group rate ≤" + starts, "per " + window];
    lines.push(q.groupRateLimited > 0 ? [limit[0], limit[1] + " ·", "held " + q.groupRateLimited] : limit);
  }
  if (controls.timeoutMs) lines.push(["timeout " + duration(controls.timeoutMs)]);
  const levels = Object.entries(q.waitingByPriority || {}).sort(([a], [b]) => b - a);
  if (levels.length > 1) {
    const parts = levels.map(([level, n], i) => level + ": " + n + (i < levels.length - 1 ? " ·" : ""));
    lines.push(["priority", ...parts, ...(controls.priorityOrder === "weighted" ? ["(weighted)"] : [])]);
  }
  return lines;
}

function renderLimits(cell, q) {
  const lines = limits(q);
  const shown = lines.length ? lines : [["—"]];
  if (cell.textContent !== shown.map(parts => parts.join(" ")).join("")) {
    cell.replaceChildren(...shown.map(parts => {
      const line = el("div");
      parts.forEach((part, i) => line.append(...(i ? [" "] : []), el("span", part)));
      return line;
    }));
  }
  const controls = q.controls;
  cell.title = controls ? "concurrency " + controls.concurrency + " per worker · partitions " + controls.partitions
    + " · priority order " + controls.priorityOrder + " (this pod's configuration)" : "";
}

/**
 * The queues' rows are updated in place, not rebuilt: a Pause button stays the element the
 * operator clicks while the counts change under it.
 */
function renderQueues(queues) {
  const body = document.querySelector("#queues tbody");
  const rows = queues.map(q => {
    let row = body.querySelector("tr[data-queue='" + CSS.escape(q.queue) + "']");
    if (!row) row = queueRow(q.queue);
    const paused = q.paused === true;
    const state = row.querySelector("[data-field='state'] span");
    state.textContent = paused ? "paused" : "active";
    state.className = paused ? "badge paused" : "badge";
    for (const column of QUEUE_COLUMNS) {
      const cell = row.querySelector("[data-field='" + column + "']");
      if (column === "limits") renderLimits(cell, q);
      else cell.textContent = q[column];
    }
    const toggle = row.querySelector("button.pause");
    if (toggle.dataset.paused !== String(paused)) {
      toggle.dataset.paused = String(paused);
      toggle.textContent = paused ? "Resume" : "Pause";
      toggle.disabled = false;
    }
    return row;
  });
  body.replaceChildren(...rows);
  renderQueueChoice(queues);
}

function queueRow(queue) {
  const row = el("tr");
  row.dataset.queue = queue;
  const state = el("td");
  state.dataset.field = "state";
  state.append(el("span"));
  const name = el("span", queue, "queue-name");
  name.title = queue;
  const nameCell = el("td");
  nameCell.append(name);
  row.append(nameCell, state);
  for (const column of QUEUE_COLUMNS) {
    const cell = el("td", null, column === "limits" ? "limits" : "num");
    cell.dataset.field = column;
    row.append(cell);
  }
  const toggle = el("button", "Pause", "plain pause");
  toggle.addEventListener("click", () => {
    const verb = toggle.dataset.paused === "true" ? "resume" : "pause";
    act(toggle, "POST", "/api/queues/" + encodeURIComponent(queue) + "/" + verb,
      (ok, answer) => say("queues-message", ok ? null : verb + " " + queue + ": " + answer, false));
  });
  const actions = el("td", null, "actions");
  actions.append(toggle);
  row.append(actions);
  return row;
}

/** Shows `text` in the element with that id (hidden when null); `ok` says whether it is good news. */
function say(id, text, ok) {
  const message = document.getElementById(id);
  message.hidden = text === null;
  message.textContent = text || "";
  message.className = ok ? "note" : "message";
}

function record(queues) {
  const sum = field => queues.reduce((total, q) => total + (q[field] || 0), 0);
  const now = Date.now();
  samples.push({ t: now, enqueued: sum("enqueued"), finished: sum("succeeded") + sum("failed"), failed: sum("failed") });
  while (samples.length && samples[0].t < now - WINDOW_MS) samples.shift();
}

/** Rates between consecutive samples, drawn as three polylines over the last five minutes. */
function renderChart() {
  const svg = document.getElementById("chart");
  // drawn in CSS pixels of the element's current width, so text and lines keep their shape
  const width = svg.clientWidth || 800, height = 180, top = 14, bottom = 20;
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  const rates = [];
  for (let i = 1; i < samples.length; i++) {
    const seconds = (samples[i].t - samples[i - 1].t) / 1000;
    if (seconds <= 0) continue;
    rates.push({
      t: samples[i].t,
      enqueued: Math.max(0, samples[i].enqueued - samples[i - 1].enqueued) / seconds,
      finished: Math.max(0, samples[i].finished - samples[i - 1].finished) / seconds,
      failed: Math.max(0, samples[i].failed - samples[i - 1].failed) / seconds,
    });
  }
  const max = Math.max(1, ...rates.map(r => Math.max(r.enqueued, r.finished)));
  const end = Date.now();
  const x = t => width - ((end - t) / WINDOW_MS) * width;
  const y = v => top + (1 - v / max) * (height - top - bottom);
  const ns = "http://www.w3.org/2000/svg";
  const parts = [];
  for (const fraction of [0, 0.5, 1]) {
    const line = document.createElementNS(ns, "line");
    line.setAttribute("class", "grid");
    line.setAttribute("x1", 0); line.setAttribute("x2", width);
    line.setAttribute("y1", y(max * fraction)); line.setAttribute("y2", y(max * fraction));
    const label = document.createElementNS(ns, "text");
    label.setAttribute("class", "axis");
    label.setAttribute("x", 4); label.setAttribute("y", y(max * fraction) - 2);
    label.textContent = (max * fraction).toFixed(max < 10 ? 1 : 0) + "/s";
    parts.push(line, label);
  }
  for (const [series, css] of [["enqueued", "enq"], ["finished", "fin"], ["failed", "fail"]]) {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("class", css);
    line.setAttribute("points", rates.map(r => x(r.t).toFixed(1) + "," + y(r[series]).toFixed(1)).join(" "));
    parts.push(line);
  }
  const axis = document.createElementNS(ns, "text");
  axis.setAttribute("class", "axis");
  axis.setAttribute("x", width - 4); axis.setAttribute("y", height - 5); axis.setAttribute("text-anchor", "end");
  axis.textContent = "now";
  const start = axis.cloneNode();
  start.setAttribute("x", 4); start.setAttribute("text-anchor", "start");
  start.textContent = "−5 min";
  svg.replaceChildren(...parts, axis, start);
}

function seconds(ms) {
  return (ms / 1000).toFixed(1) + " s";
}

/** A worker's running tasks: id, queue, attempt (0 for the first run, as in the API) and for how long, longest first. */
function runningList(tasks) {
  const list = el("ul", null, "running");
  list.append(...tasks.map(t => {
    const item = el("li");
    item.dataset.id = t.id;
    const id = el("span", t.id, "id");
    id.title = t.id;
    const meta = el("span", t.queue + " · attempt " + t.attempt + " · " + seconds(t.elapsedMs), "meta");
    meta.title = "since " + time(t.since);
    item.append(id, meta);
    return item;
  }));
  return list;
}

function renderWorkers(workers) {
  const body = document.querySelector("#workers tbody");
  body.replaceChildren(...workers.map(w => {
    const row = el("tr");
    row.dataset.worker = w.id;
    const dot = el("span", null, w.alive ? "dot alive" : "dot");
    dot.title = w.alive ? "alive" : "heartbeat expired";
    const state = el("td");
    state.append(dot);
    const running = el("td", w.running.length ? null : "idle", w.running.length ? "tasks" : "tasks muted");
    if (w.running.length) running.append(runningList(w.running));
    row.append(state, cut(w.id), el("td", seconds(w.ageMs) + " ago", "num"), running);
    return row;
  }));
  if (!workers.length) {
    const row = el("tr");
    row.append(el("td"), el("td", "No worker has a heartbeat.", "muted"));
    body.append(row);
  }
}

let deadShown = null;

async function renderDead(queues) {
  const withDead = queues.filter(q => q.dead > 0);
  const pages = await Promise.all(withDead.map(q => api("GET", "/api/queues/" + encodeURIComponent(q.queue) + "/dead?limit=20")));
  // rebuilt only when the letters changed, so a button is never swapped under the operator's click
  const shown = JSON.stringify(pages);
  if (shown === deadShown) return;
  deadShown = shown;
  const body = document.querySelector("#dead tbody");
  const rows = [];
  for (const page of pages) {
    for (const letter of page.entries) {
      const row = el("tr");
      row.dataset.id = letter.id || "";
      row.append(cut(page.queue), cut(letter.id || "(not a task)", "id"), cut(letter.type || "—"),
        cut(letter.status), cut(letter.attempts, "num"), cut(time(letter.deadLetteredAt)),
        cut(letter.lastError || "", "error"));
      const actions = el("td", null, "actions");
      if (letter.id) {
        const path = "/api/queues/" + encodeURIComponent(page.queue) + "/dead/" + encodeURIComponent(letter.id);
        const retry = el("button", "Retry", "retry");
        retry.addEventListener("click", () => act(retry, "POST", path + "/retry"));
        const discard = el("button", "Discard", "secondary discard");
        discard.addEventListener("click", () => act(discard, "DELETE", path));
        actions.append(retry, " ", discard);
      }
      row.append(actions);
      rows.push(row);
    }
  }
  body.replaceChildren(...rows);
  document.getElementById("dead-empty").hidden = rows.length > 0;
}

/**
 * An operator's action from a button. `report(ok, answer)` shows what came of it (the reply's
 * body, or the error's message); by default an error goes to the status line.
 */
async function act(button, method, path, report = (ok, answer) => { if (!ok) setStatus("error", answer); }) {
  button.disabled = true;
  try {
    report(true, await api(method, path));
    deadShown = null;
    tasksShown = null;
    await refresh();
  } catch (error) {
    report(false, error.message);
    button.disabled = false;
  }
}

const TASK_PAGE = 20;
const tasksView = { queue: null, state: "waiting", offset: 0 };
let tasksShown = null;

/** The Tasks card's queue selector follows the queues the server lists; the first is chosen at the start. */
function renderQueueChoice(queues) {
  const select = document.getElementById("tasks-queue");
  const names = queues.map(q => q.queue);
  if (select.options.length !== names.length || names.some((name, i) => select.options[i].value !== name)) {
    select.replaceChildren(...names.map(name => {
      const option = el("option", name);
      option.value = name;
      return option;
    }));
  }
  if (!names.includes(tasksView.queue)) tasksView.queue = names.length ? names[0] : null;
  select.value = tasksView.queue || "";
  const counts = queues.find(q => q.queue === tasksView.queue) || {};
  const sizes = { waiting: counts.pending, delayed: counts.delayed, running: counts.processing };
  for (const tab of document.querySelectorAll(".tabs button")) {
    tab.setAttribute("aria-selected", String(tab.dataset.state === tasksView.state));
    const size = sizes[tab.dataset.state];
    tab.textContent = tab.dataset.state + (size === undefined ? "" : " " + size);
  }
}

function age(ms) {
  if (ms === undefined || ms === null) return "—";
  if (ms < 60000) return seconds(ms);
  if (ms < 3600000) return Math.floor(ms / 60000) + " min";
  return (ms / 3600000).toFixed(1) + " h";
}

function progress(task) {
  if (!task.progress) return "—";
  return task.progress.percent + " %" + (task.progress.note ? " · " + task.progress.note : "");
}

/** A page of the chosen queue's tasks in the chosen state, with a Cancel button on each. */
async function renderTasks() {
  if (!tasksView.queue) return;
  const page = await api("GET", "/api/queues/" + encodeURIComponent(tasksView.queue) + "/tasks?state=" + tasksView.state
    + "&offset=" + tasksView.offset + "&limit=" + TASK_PAGE);
  if (page.tasks.length === 0 && page.offset > 0 && page.total > 0) {
    // the page ran empty under us (tasks ran or were cancelled): show the last one there is
    tasksView.offset = Math.floor((page.total - 1) / TASK_PAGE) * TASK_PAGE;
    return renderTasks();
  }
  document.getElementById("tasks-range").textContent = page.tasks.length
    ? (page.offset + 1) + "–" + (page.offset + page.tasks.length) + " of " + page.total : "";
  document.getElementById("tasks-prev").disabled = page.offset === 0;
  document.getElementById("tasks-next").disabled = page.offset + page.tasks.length >= page.total;
  const empty = document.getElementById("tasks-empty");
  empty.hidden = page.tasks.length > 0;
  empty.textContent = "No " + page.state + " tasks in " + page.queue + ".";
  const body = document.querySelector("#tasks tbody");
  // ages change on every poll; the rows are rebuilt only when anything else did, so that a
  // Cancel button is never swapped under the operator's click
  const shown = JSON.stringify([page.queue, page.state, page.tasks.map(t => ({ ...t, ageMs: undefined }))]);
  if (shown === tasksShown) {
    page.tasks.forEach((task, i) => { body.rows[i].querySelector("[data-field='age']").textContent = age(task.ageMs); });
    return;
  }
  tasksShown = shown;
  body.replaceChildren(...page.tasks.map(task => {
    const row = el("tr");
    row.dataset.id = task.id;
    const ageCell = cut(age(task.ageMs), "num");
    ageCell.dataset.field = "age";
    ageCell.title = (task.state === "running" ? "running since " : "enqueued ") + time(task.since)
      + (task.dueAt ? "; due " + time(task.dueAt) : "");
    const fields = [cut(task.id, "id"), cut(task.type || "—"), ageCell, cut(task.attempt, "num"),
      cut(task.priority ?? "—", "num"), cut(task.group ?? "—"), cut(progress(task)), cut(task.worker ?? "—")];
    fields[4].dataset.field = "priority";
    fields[5].dataset.field = "group";
    fields[6].dataset.field = "progress";
    const cancel = el("button", "Cancel", "secondary cancel");
    cancel.addEventListener("click", () => act(cancel, "POST", "/api/tasks/" + encodeURIComponent(task.id) + "/cancel",
      (ok, answer) => say("tasks-message", ok ? "Task " + task.id + " is " + answer.status + "."
        : "Cancel " + task.id + ": " + answer, ok)));
    const actions = el("td", null, "actions");
    actions.append(cancel);
    row.append(...fields, actions);
    return row;
  }));
}

function showTasks(change) {
  Object.assign(tasksView, change);
  tasksShown = null;
  say("tasks-message", null, true);
  refresh();
}

async function lookup(id) {
  const list = document.getElementById("task");
  try {
    const task = await api("GET", "/api/tasks/" + encodeURIComponent(id));
    const fields = [["id", task.id], ["queue", task.queue], ["type", task.type], ["status", task.status],
      ["attempts", task.attempts], ["enqueued", time(task.enqueuedAt)], ["started", time(task.startedAt)],
      ["finished", time(task.finishedAt)], ["next attempt", time(task.nextAttemptAt)],
      ["last error", task.lastError || "—"], ["result", task.result === undefined ? "—" : JSON.stringify(task.result)]];
    list.replaceChildren(...fields.flatMap(([name, value]) => {
      const dd = el("dd", value);
      dd.dataset.field = name;
      return [el("dt", name), dd];
    }));
  } catch (error) {
    list.replaceChildren(el("dd", error.message, "message"));
  }
}

let refreshing = false;
// a refresh asked for while one runs (after a click) follows it at once, not at the next poll
let refreshAgain = false;

async function refresh() {
  if (refreshing) {
    refreshAgain = true;
    return;
  }
  refreshing = true;
  refreshAgain = false;
  try {
    const [queues, workers] = await Promise.all([api("GET", "/api/queues"), api("GET", "/api/workers")]);
    renderQueues(queues);
    record(queues);
    renderChart();
    renderWorkers(workers);
    await Promise.all([renderDead(queues), renderTasks()]);
    setStatus("ok", "live · " + new Date().toLocaleTimeString());
  } catch (error) {
    setStatus("error", error.message.startsWith("401") ? "401: enter an API key with the operator role" : error.message);
  } finally {
    refreshing = false;
    if (refreshAgain) refresh();
  }
}

document.getElementById("key-form").addEventListener("submit", event => {
  event.preventDefault();
  sessionStorage.setItem(KEY_STORE, document.getElementById("api-key").value);
  refresh();
});
document.getElementById("lookup-form").addEventListener("submit", event => {
  event.preventDefault();
  lookup(document.getElementById("task-id").value.trim());
});
document.getElementById("tasks-queue").addEventListener("change", event => showTasks({ queue: event.target.value, offset: 0 }));
for (const tab of document.querySelectorAll(".tabs button")) {
  tab.addEventListener("click", () => showTasks({ state: tab.dataset.state, offset: 0 }));
}
document.getElementById("tasks-prev").addEventListener("click",
  () => showTasks({ offset: Math.max(0, tasksView.offset - TASK_PAGE) }));
document.getElementById("tasks-next").addEventListener("click", () => showTasks({ offset: tasksView.offset + TASK_PAGE }));
document.getElementById("api-key").value = apiKey();
refresh();
// a poll that finds one still running leaves it be
setInterval(() => refreshing || refresh(), POLL_MS);
