#!/usr/bin/env python3
"""Redis's instructions per task in claim.lua, counted by callgrind: noise-free, so two versions
of the script compare on a shared host where timings do not.

Starts a private redis-server under valgrind (callgrind, instrumentation off), enqueues TASKS
tasks (20 % of them repeating an earlier id) through enqueue.lua (--mode http) or LPUSHes their
envelopes (--mode lpush), then switches instrumentation on and drives claim.lua as a worker
does: each call records the outcomes (successes) of the previous call's claims and claims the
next GROUP tasks, until pending is empty. Prints the instructions per unique task. With
--phase enqueue it counts the enqueue.lua calls instead (100 tasks a call, as an API pod's batch).

  bench/claim_cost.py                                  # the scripts of this checkout
  bench/claim_cost.py --lua /tmp/old-lua --group 2     # another version, groups of 2
  bench/claim_cost.py --phase enqueue                  # enqueue.lua's instructions per unique task

Needs valgrind (apt-get install valgrind) and redis-server. The argument layout is claim.lua's
of 2026-12-07 (7 keys; ARGV[3] the dedup bucket count; ARGV[10] the controls as name=value text, "" for none; from ARGV[11] the
outcomes: id, its dedup bucket, envelope, token, outcome, then what its kind needs; enqueue.lua's type once
(ARGV[6]) and its tasks four arguments each, the last the id's dedup bucket; one flat reply: five fields, the
counted outcomes, the counted dropped copies, then the claims).
"""
import argparse
import glob
import hashlib
import os
import random
import socket
import subprocess
import tempfile
import time


class Redis:
    """A minimal RESP client: enough to drive the scripts."""

    def __init__(self, port):
        self.sock = socket.create_connection(('127.0.0.1', port))
        self.reader = self.sock.makefile('rb')

    def call(self, *args):
        self.send(*args)
        return self._read()

    def send(self, *args):
        """Writes a command and leaves its reply for replies(): a pipeline."""
        out = [b'*%d\r\n' % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out.append(b'$%d\r\n%s\r\n' % (len(a), a))
        self.sock.sendall(b''.join(out))

    def replies(self, n):
        return [self._read() for _ in range(n)]

    def _read(self):
        line = self.reader.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b'+':
            return rest.decode()
        if kind == b'-':
            raise RuntimeError(rest.decode())
        if kind == b':':
            return int(rest)
        if kind == b'$':
            n = int(rest)
            return None if n < 0 else self.reader.read(n + 2)[:-2].decode()
        if kind == b'*':
            n = int(rest)
            return None if n < 0 else [self._read() for _ in range(n)]
        raise RuntimeError('unexpected reply %r' % line)


def connect(port, seconds=30):
    """A client of the server starting on port, once it answers."""
    deadline = time.time() + seconds
    while True:
        try:
            r = Redis(port)
            r.call('PING')
            return r
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)


def script(lua_dir, verb):
    """A script's source as io.dedupq.queue.LuaScript sends it: each '-- include: <name>' line replaced by
    include/<name>.lua (a copy of an older version without includes is read as it is)."""
    lines = []
    for line in open(os.path.join(lua_dir, verb + '.lua')).read().split('\n'):
        if line.startswith('-- include: '):
            line = open(os.path.join(lua_dir, 'include', line[len('-- include: '):] + '.lua')).read()
        lines.append(line)
    return '\n'.join(lines)


def bucket(task_id, buckets):
    """The id's dedup bucket as the pods send it (io.dedupq.queue.RecordBucket)."""
    return str(int(hashlib.sha1(task_id.encode()).hexdigest()[:8], 16) % buckets)


def noop_envelope(task_id, lid, now, extra=''):
    """An envelope of bench/app's no-op type as a producer LPUSHes it; extra: more JSON fields, each with a leading comma."""
    return '{"id":"%s","type":"noop","payload":{"lid":%d},"attempt":0,"enqueuedAt":%d%s}' % (task_id, lid, now, extra)


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--lua', default=os.path.join(here, '..', 'src', 'main', 'resources', 'lua'))
    ap.add_argument('--tasks', type=int, default=2000)
    ap.add_argument('--group', type=int, default=8, help='tasks claimed (and outcomes recorded) per call')
    ap.add_argument('--mode', choices=['http', 'lpush'], default='http')
    ap.add_argument('--rate-limit', type=int, default=0, help='rate-limit starts per 1 s window (0: none); set it '
                    'above --tasks to count the check without ever being held')
    ap.add_argument('--group-concurrency', type=int, default=0,
                    help='group-concurrency (0: none); each task gets a group of its own, so nothing is parked')
    ap.add_argument('--group-rate-limit', type=int, default=0,
                    help='group-rate-limit starts per group per 1 s window (0: none); each task gets a group of its own')
    ap.add_argument('--phase', choices=['claim', 'enqueue'], default='claim',
                    help="what is counted: claim.lua's calls, or (with --mode http) enqueue.lua's, 100 tasks a call")
    ap.add_argument('--buckets', type=int, default=16384,
                    help="the queue's dedup buckets (dedupq.queues.<q>.dedup-buckets): fewer put more ids in each")
    a = ap.parse_args()
    out = tempfile.mkdtemp(prefix='claim-cost-')
    port = free_port()
    # counted: reading and running the calls, writing the replies; not the timers (serverCron), whose
    # share grows with valgrind's wall time and so with the host's load
    server = subprocess.Popen(['valgrind', '--tool=callgrind', '--instr-atstart=no', '--toggle-collect=readQueryFromClient',
                               '--toggle-collect=writeToClient',
                               '--callgrind-out-file=' + os.path.join(out, 'callgrind.out.%p'),
                               'redis-server', '--port', str(port), '--save', '', '--appendonly', 'no', '--dir', out],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        r = connect(port)
        claim = r.call('SCRIPT', 'LOAD', script(a.lua, 'claim'))
        enqueue = r.call('SCRIPT', 'LOAD', script(a.lua, 'enqueue'))
        base = '{dedupq:noop}:'
        keys = [base + k for k in ('pending', 'processing:w1', 'fence', 'stats', 'dead', 'workers', 'delayed')]
        rnd = random.Random(42)
        unique = int(a.tasks * 0.8)
        lids = list(range(unique)) + [rnd.randrange(unique) for _ in range(a.tasks - unique)]
        rnd.shuffle(lids)
        now = int(time.time() * 1000)

        def envelope(lid):
            group = ',"group":"g%d"' % lid if a.group_concurrency or a.group_rate_limit else ''
            return noop_envelope('payment-2026-%d' % lid, lid, now, group)

        def instrument(on):
            subprocess.run(['callgrind_control', '-i', 'on' if on else 'off', str(server.pid)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        instrument(a.phase == 'enqueue')
        for i in range(0, len(lids), 100):
            chunk = lids[i:i + 100]
            if a.mode == 'http':
                args = []
                for lid in chunk:
                    tid = 'payment-2026-%d' % lid
                    args += [tid, hashlib.sha256(b'%d' % lid).hexdigest(), envelope(lid), bucket(tid, a.buckets)]
                # '': every task at the default level; the default dedup buckets and window; one type for all
                r.call('EVALSHA', enqueue, 2, keys[0], keys[3], base, now, '', a.buckets, 86400000, 'noop', *args)
            else:
                r.call('LPUSH', keys[0], *[envelope(lid) for lid in chunk])
        # a heartbeat far in the future: the claims never find it stale
        r.call('ZADD', keys[5], now + 10 ** 9, 'w1')
        instrument(a.phase == 'claim')
        controls = ' '.join(c for c in ('rate=%d/1000' % a.rate_limit if a.rate_limit else '',
                                        'group-concurrency=%d' % a.group_concurrency if a.group_concurrency else '',
                                        'group-rate=%d/1000' % a.group_rate_limit if a.group_rate_limit else '') if c)
        outcomes, calls = [], 0
        while True:
            args = [base, 'w1', a.buckets, a.group, 30000, 5000, '', 86400000, 3600000, controls]
            for task_id, env, token in outcomes:
                args += [task_id, bucket(task_id, a.buckets), env, token, 'succeeded', '']
            reply = r.call('EVALSHA', claim, len(keys), *keys, *args)
            calls += 1
            at = 6 + reply[5]
            claims = reply[at + 1 + 2 * reply[at]:]
            outcomes = [(claims[i], claims[i + 1], claims[i + 2]) for i in range(0, len(claims), 5)]
            if not outcomes and reply[1] == 1:
                break
        instrument(False)
        subprocess.run(['callgrind_control', '-d', str(server.pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        stats = r.call('HGETALL', keys[3])
        total = 0
        for f in glob.glob(os.path.join(out, 'callgrind.out.*')):
            for line in open(f):
                if line.startswith(('summary:', 'totals:')):
                    total = max(total, int(line.split()[1]))
        print('%s, %s counted, groups of %d: %d claim calls, stats %s' % (
            a.mode, a.phase, a.group, calls, dict(zip(stats[::2], stats[1::2]))))
        print('instructions per unique task: %.0f (%d tasks)' % (total / unique, unique))
    finally:
        server.terminate()
        server.wait()


if __name__ == '__main__':
    main()
