#!/usr/bin/env python3
"""How late Redis removes expired task hashes when done markers (long TTL) are most of the keys
with a TTL, and what that does to the memory of a done marker (docs/benchmarks.md, "Redis
memory: hashes that expire late"). It writes the layout of one key per id that dedupq used before
2026-12-07 (lua/include/records.lua replaced it), to show why that layout was left.

A private redis-server with the given active-expire-effort (default 1, Redis's own default):
100,000 task hashes, then every 25 ms 500 of them finish (status written, PEXPIRE 1 s, done
marker SET PX 24 h), 20,000 a second. Prints the most keys seen at once, the keys 2 s after the
last finish, and the bytes per marker once a SCAN has deleted what had expired.

  bench/expiry_lag.py 1; bench/expiry_lag.py 10
"""
import subprocess
import sys
import tempfile
import time

from claim_cost import connect, free_port

TASKS = 100_000
STEP = 500


def main():
    effort = sys.argv[1] if len(sys.argv) > 1 else '1'
    port = free_port()
    server = subprocess.Popen(['redis-server', '--port', str(port), '--save', '', '--appendonly', 'no',
                               '--dir', tempfile.mkdtemp(prefix='expiry-lag-'), '--active-expire-effort', effort],
                              stdout=subprocess.DEVNULL)
    try:
        r = connect(port)

        def used():
            r.call('MEMORY', 'PURGE')
            time.sleep(1)
            return int(r.call('INFO', 'memory').split('used_memory:')[1].split()[0])

        def task(n):
            return '{dedupq:noop}:task:payment-2026-%d' % n

        base = used()
        for n in range(TASKS):
            r.send('HSET', task(n), 'id', 'payment-2026-%d' % n, 'type', 'noop', 'queue', 'noop', 'status', 'queued',
                   'digest', 'd' * 64, 'attempt', '0', 'attempts', '0', 'enqueuedAt', '1764806400000')
        r.replies(TASKS)
        most = 0
        for start in range(0, TASKS, STEP):
            for n in range(start, start + STEP):
                r.send('HSET', task(n), 'status', 'succeeded', 'finishedAt', '1764806400000')
                r.send('PEXPIRE', task(n), '1000')
                r.send('SET', '{dedupq:noop}:done:payment-2026-%d' % n, '1', 'PX', '86400000')
            r.replies(3 * STEP)
            most = max(most, r.call('DBSIZE'))
            time.sleep(0.025)
        time.sleep(2)
        late = r.call('DBSIZE')
        cursor = '0'
        while True:
            cursor = r.call('SCAN', cursor, 'COUNT', '1000')[0]
            if cursor == '0':
                break
        per_marker = (used() - base) / TASKS
        stats = r.call('MEMORY', 'STATS')
        table = dict(zip(stats[::2], stats[1::2]))['db.0'][1]
        print('active-expire-effort %s: most keys at once %d, keys 2 s after the last finish %d, bytes per marker '
              'after a SCAN %.1f (key table %d bytes for %d keys)' % (effort, most, late, per_marker, table,
                                                                      r.call('DBSIZE')))
    finally:
        server.terminate()
        server.wait()


if __name__ == '__main__':
    main()
