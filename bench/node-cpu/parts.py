#!/usr/bin/env python3
# The node's JFR execution samples (jfr print --json --stack-depth 300 --events jdk.ExecutionSample, in DIR/rec.jfr.exec.json;
# jfr prints 5 frames a stack without --stack-depth, too few to tell the parts apart)
# split by part of the checkout's path (thread and stack), as a markdown table; CPU_US (the node's CPU per
# checkout less its JIT and JFR threads, from threads.py) spread over the parts by their sample shares.
# usage: parts.py DIR CHECKOUTS CPU_US
import json, re, collections, sys
d, ops, cpu_us = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])  # cpu_us: node CPU per checkout less JIT and JFR threads
ex = json.load(open(d + '/rec.jfr.exec.json'))['recording']['events']
def part(tn, fr):
  has = lambda p: any(p in f for f in fr)
  if tn.startswith('tomcat-handler'):
    if has('asyncDispatch'): return 'API: Prefer: wait async re-dispatch (filters, MVC, response)'
    if has('dev.opledger.claim') or has('SubmissionService') : return 'API: submit, the claim (its statement, hash, canonical JSON)'
    return 'API: first pass (Tomcat, Security, MVC, observation, JSON)'
  if tn.startswith('HttpClient') or tn.startswith('ForkJoinPool.commonPool') : return 'MCP client: JDK HttpClient / reactor threads'
  if tn.startswith('activity-feed'):
    if has('FeedEvents.read'): return 'feed: reading an event (JSON, schema)'
    if has('FeedEntries'): return 'feed: its transaction'
    return 'feed: Kafka poll, commit'
  if tn.startswith('outbox-relay') or 'relay' in tn or tn.startswith('kafka-producer'): return 'relay: batch, Kafka transaction'
  if tn.startswith('notification'): return 'notifications (NOTIFY/LISTEN)'
  if has('OperationWorker') or has('GraphRunner'):
    if has('dev.opledger.mcp.internal'): return 'worker: MCP calls (the SDK, JSON, in the run)'
    if has('StateJson') or has('cloneObject') or has('CheckoutState.<init>'): return 'worker: graph state JSON (clone, checkpoint)'
    if has('org.postgresql') or has('com.zaxxer') or has('org.springframework.transaction') or has('org.springframework.jdbc'): return 'worker: its statements (lease, effects, checkpoints, finish)'
    return 'worker: graph run, the rest'
  return 'other: ' + re.sub(r'\d+', 'N', tn)
c = collections.Counter()
for e in ex:
  t = e['values'].get('sampledThread') or {}
  tn = t.get('javaName') or t.get('osName') or '?'
  st = (e['values'].get('stackTrace') or {}).get('frames', [])
  fr = [f['method']['type']['name'].replace('/', '.') + '.' + f['method']['name'] for f in st]
  c[part(tn, fr)] += 1
N = sum(c.values())
print(f'| part | samples | share | ≈ µs per checkout |'); print('|---|---|---|---|')
for k, v in sorted(c.items(), key=lambda x: (x[0].split(':')[0], -x[1])):
  print(f'| {k} | {v} | {100*v/N:.1f} % | {cpu_us*v/N:,.0f} |')
print(N)
