#!/usr/bin/env python3
"""mpi-trace-merge.py: the per-rank traces of an MPI run as one Perfetto trace.

    mpirun -np 4 env CSS_TRACE=trace.json program ...   # writes trace.rank0.json ... trace.rank3.json
    scripts/mpi-trace-merge.py trace.json [-o merged.json]

Each rank's trace (CSS_TRACE, docs/mpi.md) becomes one process, "rank R", with
its tracks (workers, devices, mpi_send, mpi_recv, mpi barrier). Ranks start
their clocks when their runtimes start, at slightly different times: each
trace is shifted so that the ends of the ranks' first barriers (the "mpi
barrier" track; every rank leaves an MPI barrier within microseconds of the
others) line up with rank 0's. An arrow joins each send ("to P #S" on rank R)
to its receive ("from R #S" on rank P). Prints what each rank sent and
received, and writes merged.json (default: trace.merged.json).
"""
import argparse
import glob
import json
import os
import re
import sys


def rank_files(base):
    stem, extension = os.path.splitext(base)
    found = {}
    for path in glob.glob(f"{glob.escape(stem)}.rank*{extension}"):
        match = re.search(r"\.rank(\d+)" + re.escape(extension) + "$", path)
        if match:
            found[int(match.group(1))] = path
    return [found[r] for r in sorted(found)]


def first_barrier_end(events):
    tracks = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    ends = [e["ts"] + e["dur"] for e in events if e.get("ph") == "X" and tracks.get(e["tid"]) == "mpi barrier"]
    return min(ends) if ends else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trace", help="the CSS_TRACE name the ranks were given (trace.json)")
    parser.add_argument("-o", "--output", help="the merged trace (default: <trace>.merged.json)")
    args = parser.parse_args()
    paths = rank_files(args.trace)
    if not paths:
        print(f"mpi-trace-merge: no {os.path.splitext(args.trace)[0]}.rank*.json next to {args.trace}",
              file=sys.stderr)
        return 1
    traces = []
    for path in paths:
        with open(path) as f:
            traces.append(json.load(f)["traceEvents"])
    anchors = [first_barrier_end(events) for events in traces]
    reference = anchors[0]
    merged, sends, receives = [], {}, {}
    totals = []
    for rank, events in enumerate(traces):
        shift = reference - anchors[rank] if reference is not None and anchors[rank] is not None else 0.0
        pid = rank + 1
        merged.append({"ph": "M", "pid": pid, "name": "process_name", "args": {"name": f"rank {rank}"}})
        merged.append({"ph": "M", "pid": pid, "name": "process_sort_index", "args": {"sort_index": rank}})
        tracks = {}
        sent = received = sent_bytes = received_bytes = 0
        for event in events:
            event = dict(event)
            event["pid"] = pid
            if event.get("ph") == "M":
                if event.get("name") == "thread_name":
                    tracks[event["tid"]] = event["args"]["name"]
                merged.append(event)
                continue
            event["ts"] = event["ts"] + shift
            merged.append(event)
            track, name = tracks.get(event["tid"], ""), event.get("name", "")
            size = event.get("args", {}).get("bytes", 0)
            match = re.fullmatch(r"(to|from) (\d+) #(\d+)", name)
            if track == "mpi_send" and match and match.group(1) == "to":
                sends[(rank, int(match.group(2)), int(match.group(3)))] = event
                sent, sent_bytes = sent + 1, sent_bytes + size
            elif track == "mpi_recv" and match and match.group(1) == "from":
                receives[(int(match.group(2)), rank, int(match.group(3)))] = event
                received, received_bytes = received + 1, received_bytes + size
        totals.append((sent, sent_bytes, received, received_bytes, shift))
    # One arrow per message: from the send's start to the receive's end.
    flows = 0
    for key, send in sends.items():
        receive = receives.get(key)
        if receive is None:
            continue
        flows += 1
        merged.append({"ph": "s", "id": flows, "pid": send["pid"], "tid": send["tid"], "ts": send["ts"],
                       "name": "message", "cat": "mpi"})
        merged.append({"ph": "f", "bp": "e", "id": flows, "pid": receive["pid"], "tid": receive["tid"],
                       "ts": receive["ts"] + receive["dur"], "name": "message", "cat": "mpi"})
    output = args.output or os.path.splitext(args.trace)[0] + ".merged.json"
    with open(output, "w") as f:
        json.dump({"traceEvents": merged}, f)
    for rank, (sent, sent_bytes, received, received_bytes, shift) in enumerate(totals):
        print(f"rank {rank}: sent {sent} messages ({sent_bytes / 1e6:.1f} MB), received {received} "
              f"({received_bytes / 1e6:.1f} MB), clock shifted {shift / 1e3:+.3f} ms")
    print(f"mpi-trace-merge: {len(paths)} ranks, {flows} messages joined, {len(sends) - flows} sends without "
          f"their receive -> {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
