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

const QUEUE_COLUMNS = ["pending", "processing", "delayed", "dead", "enqueued", "succeeded", "failed", "retried",
  "duplicatesSkipped", "cancelled", "revived", "discarded"];

function renderQueues(queues) {
  const body = document.querySelector("#queues tbody");
  body.replaceChildren(...queues.map(q => {
    const row = el("tr");
    row.dataset.queue = q.queue;
    row.append(el("td", q.queue));
    for (const column of QUEUE_COLUMNS) {
      const cell = el("td", q[column], "num");
      cell.dataset.field = column;
      row.append(cell);
    }
    return row;
  }));
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

/** A worker's running tasks: id, queue, attempt (1 for the first run) and for how long, longest first. */
function runningList(tasks) {
  const list = el("ul", null, "running");
  list.append(...tasks.map(t => {
    const item = el("li");
    item.dataset.id = t.id;
    const id = el("span", t.id, "id");
    id.title = t.id;
    const meta = el("span", t.queue + " · attempt " + (t.attempt + 1) + " · " + seconds(t.elapsedMs), "meta");
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

async function act(button, method, path) {
  button.disabled = true;
  try {
    await api(method, path);
    deadShown = null;
    await refresh();
  } catch (error) {
    setStatus("error", error.message);
    button.disabled = false;
  }
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

async function refresh() {
  if (refreshing) return;
  refreshing = true;
  try {
    const [queues, workers] = await Promise.all([api("GET", "/api/queues"), api("GET", "/api/workers")]);
    renderQueues(queues);
    record(queues);
    renderChart();
    renderWorkers(workers);
    await renderDead(queues);
    setStatus("ok", "live · " + new Date().toLocaleTimeString());
  } catch (error) {
    setStatus("error", error.message.startsWith("401") ? "401: enter an API key with the operator role" : error.message);
  } finally {
    refreshing = false;
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
document.getElementById("api-key").value = apiKey();
refresh();
setInterval(refresh, POLL_MS);
