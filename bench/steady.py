#!/usr/bin/env python3
"""One worker pod on a backlog, measured in its steady state: how many tasks a second it runs and
what each costs the worker's process and Redis in CPU, and which commands Redis ran for it.

For each run: a private redis-server, TASKS no-op envelopes (fresh ids) LPUSHed onto the bench
queue's pending list, then bench/app's jar started on it as a worker (API off, the image's JVM
options, bench/pod-jvm-opts.sh). Once the list starts to shrink it waits WARM seconds (the JIT),
resets Redis's commandstats and measures for MEASURE seconds: tasks from the list's length, CPU
from /proc of both processes. The backlog must outlast the run; the script says so when it did not.
Unlike bench/run.sh there is no peer and no evidence check: this is for looking at one cell
closely, and for comparing two builds run after one another, alternately.

  bench/steady.py                                   # concurrency 16, the no-op handler on the event loop
  bench/steady.py --handler threads --runs 3        # on handler threads, three runs
  bench/steady.py --concurrency 1 --tasks 200000

Needs redis-server and bench/app built (bench/run.sh builds it; or ./mvnw -DskipTests -DskipITs
-Dinvoker.test=bench/app/pom.xml verify). Prints one line per run, then the commands of the last
run per task, the costliest first (commands a script runs are counted there too).
"""
import argparse
import os
import subprocess
import time

from claim_cost import connect, free_port, noop_envelope

JAR = 'target/it/bench/app/target/quarkus-app/quarkus-run.jar'
PENDING = '{dedupq:noop}:pending'
PUSH = 1000
TICKS = os.sysconf('SC_CLK_TCK')


def cpu_seconds(pid):
    """User and system CPU of a process so far, from /proc."""
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def command_stats(redis):
    """INFO commandstats: command -> (calls, µs)."""
    stats = {}
    for line in redis.call('INFO', 'commandstats').splitlines():
        if line.startswith('cmdstat_'):
            name, values = line[len('cmdstat_'):].split(':', 1)
            kv = dict(item.split('=') for item in values.split(','))
            stats[name] = (int(kv['calls']), int(kv['usec']))
    return stats


def push_backlog(redis, tasks):
    now = int(time.time() * 1000)
    for first in range(0, tasks, PUSH):
        redis.send('LPUSH', PENDING, *(noop_envelope('s%d' % n, n, now) for n in range(first, min(first + PUSH, tasks))))
    redis.replies((tasks + PUSH - 1) // PUSH)


def one_run(args, jvm_opts, log):
    port = free_port()
    server = subprocess.Popen(['redis-server', '--port', str(port), '--bind', '127.0.0.1', '--save', '',
                               '--appendonly', 'no'], stdout=subprocess.DEVNULL)
    worker = None
    try:
        redis = connect(port)
        push_backlog(redis, args.tasks)
        props = [f'-Ddedupq.queues.noop.concurrency={args.concurrency}', '-Ddedupq.api.enabled=false',
                 '-Ddedupq.worker.id=steady', f'-Dbench.noop-blocking={str(args.handler == "threads").lower()}',
                 f'-Dquarkus.http.port={free_port()}']
        worker = subprocess.Popen([args.java, *jvm_opts, *props, '-jar', JAR], stdout=log, stderr=subprocess.STDOUT,
                                  env=dict(os.environ, REDIS_URL=f'redis://127.0.0.1:{port}'))
        deadline = time.time() + 120
        while redis.call('LLEN', PENDING) >= args.tasks:
            if worker.poll() is not None or time.time() > deadline:
                raise SystemExit(f'the worker did not start taking tasks; see {log.name}')
            time.sleep(0.1)
        time.sleep(args.warm)
        redis.call('CONFIG', 'RESETSTAT')
        before = (redis.call('LLEN', PENDING), cpu_seconds(worker.pid), cpu_seconds(server.pid), time.time())
        time.sleep(args.measure)
        after = (redis.call('LLEN', PENDING), cpu_seconds(worker.pid), cpu_seconds(server.pid), time.time())
        stats = command_stats(redis)
        if after[0] == 0:
            raise SystemExit('the backlog ran out while measuring: raise --tasks')
    finally:
        for process in (worker, server):
            if process:
                process.terminate()
                process.wait()
    tasks = before[0] - after[0]
    scripts = [stats.get(c, (0, 0)) for c in ('evalsha', 'eval')]
    return {
        'tasks/s': tasks / (after[3] - before[3]),
        'worker CPU µs/task': (after[1] - before[1]) * 1e6 / tasks,
        'Redis CPU µs/task': (after[2] - before[2]) * 1e6 / tasks,
        'scripts µs/task': sum(us for _, us in scripts) / tasks,
        'script calls/task': sum(calls for calls, _ in scripts) / tasks,
    }, stats, tasks


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--concurrency', type=int, default=16)
    parser.add_argument('--handler', choices=('loop', 'threads'), default='loop')
    parser.add_argument('--tasks', type=int, default=700_000, help='backlog; must outlast warm-up and measurement')
    parser.add_argument('--warm', type=float, default=8, help='seconds of work before measuring')
    parser.add_argument('--measure', type=float, default=8, help='seconds measured')
    parser.add_argument('--runs', type=int, default=1)
    parser.add_argument('--java', default='java')
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    if not os.path.exists(JAR):
        raise SystemExit(f'{JAR} not found: build bench/app first (see --help)')
    jvm_opts = subprocess.run(['sh', 'bench/pod-jvm-opts.sh'], check=True, capture_output=True,
                              text=True).stdout.split()
    os.makedirs('target/steady', exist_ok=True)
    print(f'concurrency {args.concurrency}, handler on the {args.handler}, JVM options: {" ".join(jvm_opts)}')
    for run in range(1, args.runs + 1):
        with open(f'target/steady/worker-{run}.log', 'w') as log:
            result, stats, tasks = one_run(args, jvm_opts, log)
        print(f'run {run}: ' + ', '.join(f'{k} {v:,.2f}' if v < 100 else f'{k} {v:,.0f}' for k, v in result.items()))
    print('commands of the last run, per task (calls, µs):')
    for name, (calls, us) in sorted(stats.items(), key=lambda e: -e[1][1]):
        if calls / tasks >= 0.01:
            print(f'  {name:<12} {calls / tasks:6.2f} {us / tasks:7.2f}')


if __name__ == '__main__':
    main()
