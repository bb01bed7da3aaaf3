#!/usr/bin/env node
// BullMQ's Redis memory per completed job, the peer row of the memory section: JOBS jobs added
// with addBulk (1000 per call) and BullMQ's deduplication option, ids payment-2026-<n> as
// dedupq's, processed by a Worker with a no-op processor (concurrency 16) until every job is
// completed. Completed jobs stay, as removeOnComplete's default keeps them. One warm-up job first
// loads BullMQ's scripts and makes the queue's own keys; then this prints {"phase":"warm"} and
// waits for a line on stdin, so that the bench reads Redis's memory between the two. bench/run.sh
// copies this file next to the peer's node_modules. Prints {"phase":"done","jobs":N,"completed":N}.
import { Queue, Worker } from 'bullmq';
import { createInterface } from 'node:readline';

const env = (k, d) => process.env[k] ?? d;
const REDIS_URL = new URL(env('REDIS_URL', 'redis://127.0.0.1:6379'));
const JOBS = parseInt(env('JOBS', '100000'), 10);
const connection = { host: REDIS_URL.hostname, port: parseInt(REDIS_URL.port || '6379', 10) };
const queue = new Queue('peermem', { connection });
const worker = new Worker('peermem', async () => {}, { connection, concurrency: 16 });

async function addAndProcess(ids) {
  const target = (await queue.getCompletedCount()) + ids.length;
  for (let from = 0; from < ids.length; from += 1000) {
    await queue.addBulk(ids.slice(from, from + 1000).map((id, k) =>
      ({ name: 'task', data: { lid: from + k }, opts: { deduplication: { id } } })));
  }
  while ((await queue.getCompletedCount()) < target) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

await addAndProcess(['payment-warm-up']);
console.log(JSON.stringify({ phase: 'warm' }));
const stdin = createInterface({ input: process.stdin });
await new Promise((resolve) => stdin.once('line', resolve));
stdin.close();
await addAndProcess(Array.from({ length: JOBS }, (_, n) => `payment-2026-${n}`));
await worker.close();
const completed = (await queue.getCompletedCount()) - 1;
await queue.close();
console.log(JSON.stringify({ phase: 'done', jobs: JOBS, completed }));
