#!/usr/bin/env python3
"""Latency of the Redis part of an enqueue at each durability level (docs/operations.md,
"Durability levels side by side"): one connection sends an enqueue-like script (HSET of a task
hash + LPUSH, as enqueue.lua does) N times, each followed by WAIT <replicas> 300 in the same
pipeline when <replicas> > 0, as dedupq.durability.replicas does; prints p50, p99 and the mean.

    durability_latency.py <port> <replicas> <calls>

Start the servers yourself (never on a port in use), e.g. a master with
--appendonly yes --appendfsync everysec, a replica of it (--replicaof 127.0.0.1 <port>), and a
single node with --appendfsync always. Plain sockets, no client library.
"""
import socket, sys, time, statistics
def enc(*args):
    out = b'*%d\r\n' % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b'$%d\r\n%s\r\n' % (len(a), a)
    return out
class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(('127.0.0.1', port)); self.f = self.s.makefile('rb')
    def reply(self):
        line = self.f.readline()
        t = line[:1]
        if t in (b'+', b':'): return line[1:-2]
        if t == b'-': raise RuntimeError(line)
        if t == b'$':
            n = int(line[1:-2]); return None if n < 0 else self.f.read(n + 2)[:-2]
        if t == b'*': return [self.reply() for _ in range(int(line[1:-2]))]
    def send(self, *cmds):
        self.s.sendall(b''.join(enc(*c) for c in cmds)); return [self.reply() for _ in cmds]
SCRIPT = "redis.call('HSET', KEYS[1], 'status', 'queued', 'digest', ARGV[1]); redis.call('LPUSH', KEYS[2], ARGV[1]); return 1"
port, wait, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
c = Conn(port); lat = []
for i in range(n):
    cmds = [('EVAL', SCRIPT, 2, 't:%d' % i, 'pending', 'x' * 200)]
    if wait: cmds.append(('WAIT', wait, 300))
    t = time.perf_counter(); r = c.send(*cmds); lat.append((time.perf_counter() - t) * 1000)
    if wait and int(r[-1]) < wait: print('not replicated', r)
lat.sort()
print(f"port {port} wait {wait}: n={n} p50={lat[n//2]:.3f} ms p99={lat[int(n*0.99)]:.3f} ms mean={statistics.mean(lat):.3f} ms")
