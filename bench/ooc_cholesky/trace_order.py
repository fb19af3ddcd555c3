#!/usr/bin/env python3
# bench/ooc_cholesky/trace_order.py TRACE.json: the order a run actually ran its tasks in, for order_replay.py's
# file:PATH order. Reads a CSS_TRACE of ooc_cholesky (one device or worker track, or several: all are merged),
# takes the task events of the worker tracks (not the copy streams " in", " out", ...), sorts them by start and
# prints one submission index a line, 0-based (task ids count submissions from the first task's id; ooc_cholesky
# submits nothing before the factorisation, so that is order_replay.py's task list). Label counts go to stderr.
#   CSS_TRACE=t.json ... ooc_cholesky -n 131072 -t 2048
#   python3 trace_order.py t.json > run.order; python3 order_replay.py 64 768 file:run.order
import json, sys
from collections import Counter
COPY_SUFFIXES = (' in', ' peer', ' out', ' copy-in', ' copy-out')   # as scripts/trace-summary.py
trace = json.load(open(sys.argv[1]))
events = trace['traceEvents'] if isinstance(trace, dict) else trace
names = {(e.get('pid'), e['tid']): e['args']['name'] for e in events if e.get('ph') == 'M' and e.get('name') == 'thread_name'}
work = [e for e in events if e.get('ph') == 'X' and 'task' in e.get('args', {})
        and not names.get((e.get('pid'), e['tid']), '').endswith(COPY_SUFFIXES)]
work.sort(key=lambda e: (e['ts'], e['args']['task']))
ids = [e['args']['task'] for e in work]
base = min(ids)
assert sorted(ids) == list(range(base, base + len(ids))), 'task ids not one event each, contiguous'
print('tasks', len(ids), 'first id', base, dict(Counter(e['name'] for e in work)), file=sys.stderr)
sys.stdout.write(''.join(f'{t - base}\n' for t in ids))
