#!/usr/bin/env node
// BullMQ's enqueue rate, the peer row of the wrk cells: Queue.add (one job per call) and
// Queue.addBulk (BATCH jobs per call), IN_FLIGHT calls outstanding at any time, as wrk keeps
// 64 connections busy, each job with BullMQ's deduplication option and a fresh id, for SECONDS
// after a warm-up of WARMUP_SECONDS. bench/run.sh copies this file next to the peer's
// node_modules. Prints one JSON line: {"batch":N,"calls_per_s":..,"jobs_per_s":..,"node_cpu_pct":..}.
import { Queue } from 'bullmq';
import { performance } from 'node:perf_hooks';

const env = (k, d) => process.env[k] ?? d;
const REDIS_URL = new URL(env('REDIS_URL', 'redis://127.0.0.1:6379'));
const BATCH = parseInt(env('BATCH', '1'), 10);
const IN_FLIGHT = parseInt(env('IN_FLIGHT', '64'), 10);
const SECONDS = parseFloat(env('SECONDS', '10'));
const WARMUP_SECONDS = parseFloat(env('WARMUP_SECONDS', '5'));

const queue = new Queue(`peeradd${BATCH}`, {
  connection: { host: REDIS_URL.hostname, port: parseInt(REDIS_URL.port || '6379', 10) },
});
let counter = 0;
const job = (phase) => {
  const id = `${phase}-${++counter}`;
  return { name: 'task', data: { id }, opts: { deduplication: { id } } };
};

async function drive(phase, seconds) {
  const until = performance.now() + seconds * 1000;
  let calls = 0;
  const loop = async () => {
    while (performance.now() < until) {
      if (BATCH === 1) {
        const j = job(phase);
        await queue.add(j.name, j.data, j.opts);
      } else {
        await queue.addBulk(Array.from({ length: BATCH }, () => job(phase)));
      }
      calls++;
    }
  };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: IN_FLIGHT }, loop));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { calls, elapsed, cpuPct: ((cpu.user + cpu.system) / 1e6 / elapsed) * 100 };
}

await queue.waitUntilReady();
await drive('warm', WARMUP_SECONDS);
await queue.obliterate({ force: true });
const r = await drive('run', SECONDS);
await queue.obliterate({ force: true });
await queue.close();
console.log(JSON.stringify({ batch: BATCH, in_flight: IN_FLIGHT, seconds: r.elapsed, calls_per_s: r.calls / r.elapsed,
  jobs_per_s: (r.calls * BATCH) / r.elapsed, node_cpu_pct: r.cpuPct }));
