#!/usr/bin/env python3
# bench/ooc_cholesky/victim_replay.py NT CACHE_TILES ORDER_FILE [RULE...]: how many tile loads (and
# write-backs) the tiled Cholesky factorisation (trsm panel, as order_replay.py) needs out of core when it
# runs in the recorded order ORDER_FILE (trace_order.py's output: one submission index a line; `submit`: the
# submission order) and a full
# cache gives up replicas by RULE. Where order_replay.py asks which order, this asks which victim for a
# given order. Rules (default: all):
#   runtime   the runtime's next-use rule before 2026-11-28 (Directory::expect_order, eviction_score):
#             expected positions from a stable sort by unit-weight rank, then submission; distance from the
#             furthest expected position completed; no known use first; dirty a quarter nearer; LRU on ties
#   ready     the same, but a replica a ready task uses (its predecessors have run, it has not) goes after
#             every other: the rule since a8d749a (DataObject::ready_uses)
#   ready-rank  ready tier ordered by the highest rank among its ready users instead of by distance
#   near      ready, plus a middle tier for replicas a task one step from ready uses
#   list      positions from a list schedule of the ready tasks by rank, rebuilt every 32 tasks
#   belady    Belady's rule on the recorded order itself (the best any rule can do for it)
# Offline arithmetic, no runtime; a task's tiles are loaded when it runs, one task at a time.
#   CSS_TRACE=t.json ... ooc_cholesky -n 65536 -t 2048; trace_order.py t.json > run.order
#   python3 victim_replay.py 32 192 run.order        # n = 65536, tile 2048, through 6 GiB
import heapq
import sys
from collections import defaultdict

nt, capacity = int(sys.argv[1]), int(sys.argv[2])
rules = sys.argv[4:] or ['runtime', 'ready', 'ready-rank', 'near', 'list', 'belady']

tasks = []  # (reads, written tile)
for k in range(nt):
    tasks.append(([], (k, k)))
    tasks.extend(([(k, k)], (i, k)) for i in range(k + 1, nt))
    for i in range(k + 1, nt):
        tasks.extend(([(i, k), (j, k)], (i, j)) for j in range(k + 1, i))
        tasks.append(([(i, k)], (i, i)))
n = len(tasks)
# ORDER_FILE `submit`: submission order (right-looking), for a quick look and the test.
order = list(range(n)) if sys.argv[3] == 'submit' else [int(x) for x in open(sys.argv[3]).read().split()]
assert sorted(order) == list(range(n)), 'the order is not of this NT'
uses = [reads + [written] for reads, written in tasks]
preds = [set() for _ in range(n)]
last_writer, readers = {}, defaultdict(list)
for t, (reads, written) in enumerate(tasks):
    preds[t].update(last_writer[o] for o in uses[t] if o in last_writer)  # RAW, WAW
    preds[t].update(readers[written])                                     # WAR
    for o in reads:
        readers[o].append(t)
    readers[written] = []
    last_writer[written] = t
succs = [[] for _ in range(n)]
for t in range(n):
    for p in preds[t]:
        succs[p].append(t)
rank = [0] * n  # unit weights, as the runtime's
for t in reversed(range(n)):
    rank[t] = 1 + max((rank[s] for s in succs[t]), default=0)
position = [0] * n
for p, t in enumerate(sorted(range(n), key=lambda t: (-rank[t], t)), start=1):
    position[t] = p
users = defaultdict(list)
for t in range(n):
    for o in uses[t]:
        users[o].append(t)
recorded_uses = defaultdict(list)
for p, t in enumerate(order):
    for o in uses[t]:
        recorded_uses[o].append(p)

FAR, TIER = 1 << 40, 1 << 60


def replay(rule):
    upcoming = {o: sorted(position[t] for t in ts) for o, ts in users.items()}
    indeg = [len(p) for p in preds]
    ran = [False] * n
    ready_users = defaultdict(set)
    for t in range(n):
        if indeg[t] == 0:
            for o in uses[t]:
                ready_users[o].add(t)
    cache, dirty, last, pointer = set(), set(), {}, defaultdict(int)
    loads = write_backs = frontier = 0
    listed = {}

    def list_positions():
        listed.clear()
        degree = indeg[:]
        heap = [(-rank[t], t) for t in range(n) if degree[t] == 0 and not ran[t]]
        heapq.heapify(heap)
        step = 0
        while heap and step < 3000:
            _, t = heapq.heappop(heap)
            step += 1
            for o in uses[t]:
                listed.setdefault(o, step)
            for s in succs[t]:
                degree[s] -= 1
                if degree[s] == 0:
                    heapq.heappush(heap, (-rank[s], s))

    def score(o, now):
        if rule == 'belady':
            u, q = recorded_uses[o], pointer[o]
            while q < len(u) and u[q] <= now:
                q += 1
            pointer[o] = q
            return u[q] if q < len(u) else TIER * 3
        if not upcoming[o]:
            return 3 * TIER + (o not in dirty)
        nxt = upcoming[o][0]
        distance = min(nxt - frontier if nxt > frontier else 0, FAR)
        base = 3 * distance if o in dirty else 4 * distance
        if rule == 'runtime':
            return base
        if rule == 'list':
            return TIER + listed[o] if o in listed else 2 * TIER + base
        if ready_users[o]:
            return TIER + (FAR - max(rank[t] for t in ready_users[o]) if rule == 'ready-rank' else base)
        if rule == 'near' and any(indeg[t] == 1 and any(indeg[q] == 0 and not ran[q] for q in preds[t])
                                  for t in users[o] if not ran[t]):
            return TIER + FAR * 4 + base
        return 2 * TIER + base

    for now, t in enumerate(order):
        if rule == 'list' and now % 32 == 0:
            list_positions()
        ran[t] = True
        for o in uses[t]:
            ready_users[o].discard(t)
        for o in uses[t]:
            if o in cache:
                continue
            loads += 1
            while len(cache) >= capacity:
                victim = max((v for v in cache if v not in uses[t]), key=lambda v: (score(v, now), -last[v]))
                cache.discard(victim)
                if victim in dirty:
                    write_backs += 1
                    dirty.discard(victim)
            cache.add(o)
        dirty.add(tasks[t][1])
        for o in uses[t]:
            last[o] = now
            upcoming[o].remove(position[t])
        frontier = max(frontier, position[t])
        for s in succs[t]:
            indeg[s] -= 1
            if indeg[s] == 0:
                for o in uses[s]:
                    ready_users[o].add(s)
    return loads, write_backs


tiles = nt * (nt + 1) // 2
for rule in rules:
    loads, write_backs = replay(rule)
    print(f'{rule} loads {loads} x matrix {loads / tiles:.2f} write-backs {write_backs}')
