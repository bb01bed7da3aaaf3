"""Steady load for a worker pod (bench/pod-rss.sh): LPUSHes no-op envelopes with fresh ids onto
the bench queue's pending list at RATE a second for SECONDS, in pushes of 500, holding back while
more than 20,000 wait, so that a worker slower than RATE is not buried.

    python3 bench/lpush_load.py <redis port> <seconds> <rate>
"""
import sys
import time

from claim_cost import Redis, noop_envelope

PENDING = '{dedupq:noop}:pending'
PUSH = 500
MAX_BACKLOG = 20_000


def main():
    port, seconds, rate = (int(a) for a in sys.argv[1:4])
    redis = Redis(port)
    pushed, started = 0, time.time()
    while time.time() - started < seconds:
        if pushed < (time.time() - started) * rate and redis.call('LLEN', PENDING) < MAX_BACKLOG:
            now = int(time.time() * 1000)
            redis.call('LPUSH', PENDING, *(noop_envelope('load-%d' % n, n, now) for n in range(pushed, pushed + PUSH)))
            pushed += PUSH
        else:
            time.sleep(0.01)
    elapsed = time.time() - started
    print(f"pushed {pushed} tasks in {elapsed:.0f} s ({pushed / elapsed:.0f} a second)")


if __name__ == '__main__':
    main()
