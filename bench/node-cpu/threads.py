#!/usr/bin/env python3
# Per-thread CPU between two snapshots of /proc/PID/task/*/stat (tid|comm|utime+stime ticks, as
# bench/node-cpu/profile.sh writes them), by thread name with digits folded, per checkout.
# usage: threads.py THREADS0 THREADS1 CHECKOUTS
import sys, re, collections
d0 = {l.split('|')[0]: l.strip().split('|') for l in open(sys.argv[1])}
d1 = {l.split('|')[0]: l.strip().split('|') for l in open(sys.argv[2])}
ops = int(sys.argv[3]); hz = 100
c = collections.Counter()
for tid, (t, n, v) in d1.items():
  base = int(d0[tid][2]) if tid in d0 else 0
  g = re.sub(r'\d+', 'N', n)
  c[g] += int(v) - base
tot = sum(c.values())
print(f'total {tot} ticks = {tot/hz/ops*1e6:.0f} us/checkout over {ops} checkouts')
for g, v in c.most_common(30):
  if v: print(f'{v:6d} {v/hz/ops*1e6:8.0f} us/checkout {100*v/tot:5.1f}%  {g}')
