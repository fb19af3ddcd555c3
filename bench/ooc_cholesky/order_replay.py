#!/usr/bin/env python3
# bench/ooc_cholesky/order_replay.py NT CACHE_TILES [ORDER...]: how many tile loads the tiled Cholesky
# factorisation needs out of core in a given execution order, with Belady's evictions (the best any
# victim choice can do for that order), one task at a time. NT tiles a side; CACHE_TILES tiles fit on the
# device. Orders: rank (critical path, as the runtime ranks a barrier's tasks), chain (rank, but a tile's
# next update right after its last when ready), submit (submission: right-looking), left (left-looking),
# key (by the first write of the written tile), last (by the last write of the written tile: it finishes
# one tile at a time and comes out as the left-looking order), sets (CSS_OOC_ORDER's working sets of half
# the cache), file:PATH (one submission index a line, 0-based:
# the order a run ran, from its trace by trace_order.py). Offline arithmetic, no runtime: it tells
# which order an out-of-core schedule should aim at (performance.md, 2026-11-28).
#   python3 order_replay.py 64 768        # n = 131072, tile 2048, through 24 GiB
import heapq, sys
from collections import defaultdict
nt = int(sys.argv[1]); C = int(sys.argv[2])
tasks = []  # (kind, k, i, j, reads, write)
def A(i, j): return (i, j)
for k in range(nt):
    tasks.append(('potrf', k, k, k, [], A(k, k)))
    for i in range(k + 1, nt):
        tasks.append(('trsm', k, i, k, [A(k, k)], A(i, k)))
    for i in range(k + 1, nt):
        for j in range(k + 1, i):
            tasks.append(('gemm', k, i, j, [A(i, k), A(j, k)], A(i, j)))
        tasks.append(('syrk', k, i, i, [A(i, k)], A(i, i)))
n = len(tasks)
# dependencies: last writer of each object (reads and writes), RAW + WAW (no WAR: reads come before the next write in order anyway for this graph)
last_writer = {}; preds = [set() for _ in range(n)]; readers_since = defaultdict(list)
for t, (kind, k, i, j, reads, w) in enumerate(tasks):
    for o in reads + [w]:
        if o in last_writer: preds[t].add(last_writer[o])
    for r in readers_since[w]: preds[t].add(r)   # WAR
    for o in reads: readers_since[o].append(t)
    readers_since[w] = []
    last_writer[w] = t
succs = [[] for _ in range(n)]
for t in range(n):
    for p in preds[t]: succs[p].append(t)
# rank: longest path to the end (critical path), unit weights by kind
cost = {'potrf': 4, 'trsm': 3, 'gemm': 1, 'syrk': 1}
rank = [0] * n
for t in reversed(range(n)):
    rank[t] = cost[tasks[t][0]] + max([rank[s] for s in succs[t]], default=0)
def order_by(policy):
    indeg = [len(p) for p in preds]
    ready = [(-rank[t], t) for t in range(n) if indeg[t] == 0]
    heapq.heapify(ready); done = [False] * n; out = []
    writers = defaultdict(list)
    for t, x in enumerate(tasks): writers[x[5]].append(t)
    nextw = {}
    for o, ws in writers.items():
        for a, b in zip(ws, ws[1:]): nextw[a] = b
    chain = None
    while len(out) < n:
        if policy == 'chain' and chain is not None and indeg[chain] == 0 and not done[chain]:
            t = chain
        else:
            while True:
                _, t = heapq.heappop(ready)
                if not done[t]: break
        done[t] = True; out.append(t)
        for s in succs[t]:
            indeg[s] -= 1
            if indeg[s] == 0: heapq.heappush(ready, (-rank[s], s))
        chain = nextw.get(t) if tasks[t][0] in ('gemm', 'syrk') else None
    return out
def belady(order):
    uses = defaultdict(list)
    for pos, t in enumerate(order):
        kind, k, i, j, reads, w = tasks[t]
        for o in reads + [w]: uses[o].append(pos)
    ptr = defaultdict(int); cache = set(); heap = []; loads = 0
    def next_use(o, pos):
        u = uses[o]; p = ptr[o]
        while p < len(u) and u[p] <= pos: p += 1
        ptr[o] = p
        return u[p] if p < len(u) else 10**9
    for pos, t in enumerate(order):
        kind, k, i, j, reads, w = tasks[t]
        need = reads + [w]
        for o in need:
            if o not in cache:
                loads += 1
                while len(cache) >= C:
                    # evict furthest next use (lazy heap)
                    while True:
                        nu, v = heapq.heappop(heap); nu = -nu
                        if v in cache and v not in need and next_use(v, pos) == nu: break
                        if v in cache and v not in need: heapq.heappush(heap, (-next_use(v, pos), v))
                    cache.discard(v)
                cache.add(o)
        for o in need:
            heapq.heappush(heap, (-next_use(o, pos), o))
    return loads
blocks = nt * (nt + 1) // 2
def left_order():
    # left-looking: for column j: updates of column j from every k < j (k outer per target? k inner), then its panel
    idx = {}
    for t, (kind, k, i, j, r, w) in enumerate(tasks): idx[(kind, k, i, j)] = t
    out = []
    for j in range(nt):
        for k in range(j):
            # updates of column j at step k: syrk (j,j) and gemm (i,j) for i > j
            out.append(idx[('syrk', k, j, j)])
            for i in range(j + 1, nt): out.append(idx[('gemm', k, i, j)])
        out.append(idx[('potrf', j, j, j)])
        for i in range(j + 1, nt): out.append(idx[('trsm', j, i, j)])
    return out
def list_schedule(key):
    # Tasks one at a time, whenever ready, smallest key first.
    indeg = [len(p) for p in preds]
    ready = [(key[t], t) for t in range(n) if indeg[t] == 0]
    heapq.heapify(ready); out = []
    while ready:
        _, t = heapq.heappop(ready); out.append(t)
        for s_ in succs[t]:
            indeg[s_] -= 1
            if indeg[s_] == 0: heapq.heappush(ready, (key[s_], s_))
    return out
def key_order():
    first = {}
    for t, x in enumerate(tasks): first.setdefault(x[5], t)
    return list_schedule([(first[tasks[t][5]], t) for t in range(n)])
def last_key_order():
    last = {}
    for t, x in enumerate(tasks): last[x[5]] = t
    return list_schedule([(last[tasks[t][5]], t) for t in range(n)])
def sets_order(set_tiles):
    # As the runtime's CSS_OOC_ORDER (master/OutOfCoreOrder.cpp): tiles grouped into working sets of
    # set_tiles in the order the rank order last writes them, each task with the earliest set it writes
    # (no later than a successor's), ranks within a set.
    expected = list_schedule([(-rank[t], t) for t in range(n)])
    last = {}
    for pos, t in enumerate(expected): last[tasks[t][5]] = pos
    tile_set = {}
    for q, o in enumerate(sorted(last, key=lambda o: last[o])): tile_set[o] = q // set_tiles
    task_set = [tile_set[tasks[t][5]] for t in range(n)]
    for t in reversed(range(n)):
        for s_ in succs[t]: task_set[t] = min(task_set[t], task_set[s_])
    return list_schedule([(task_set[t], -rank[t], t) for t in range(n)])
orders = {'sets': lambda: sets_order(C // 2), 'last': last_key_order, 'key': key_order, 'rank': lambda: list_schedule([(-rank[t], t) for t in range(n)]), 'chain': lambda: order_by('chain'), 'submit': lambda: list(range(n)), 'left': left_order}
def file_order(path):
    # file:PATH: an order from elsewhere (a run's, by trace_order.py), one submission index a line, 0-based
    o = [int(x) for x in open(path).read().split()]
    pos = {t: p for p, t in enumerate(o)}
    assert all(pos[p] < pos[t] for t in range(n) for p in preds[t] if t in pos and p in pos), 'order breaks a dependency'
    return o
for policy in sys.argv[3:] or orders:
    o = file_order(policy[5:]) if policy.startswith('file:') else orders[policy]()
    assert sorted(o) == list(range(n))
    print(policy, 'loads', belady(o), 'x matrix', round(belady(o) / blocks, 2))
