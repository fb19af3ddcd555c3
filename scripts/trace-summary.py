#!/usr/bin/env python3
"""Summarise a GPUSs trace (CSS_TRACE=file.json) in text.

    scripts/trace-summary.py TRACE.json [--window MS] [--gaps N] [--from LABEL[#K]]

The trace opens in ui.perfetto.dev; this answers the first questions without
it: how busy each worker was, when it idled, and what moved. It prints

  - per track (a worker, or a device's copy stream): busy time, share of the
    span, task or copy count and bytes;
  - a timeline: each worker's busy share per window of the span;
  - each worker's longest idle gaps between tasks, with the task that ended
    the gap;
  - per worker and task label: count, summed time, mean and the 10th, 50th
    and 90th percentiles of a task's time (on a GPU with several compute
    streams a kernel's time includes what shares the GPU with it; run with
    CSS_GPU_STREAMS=1 for each task's own).

The span runs from the first task labelled LABEL (default: the first event)
to the last event, so that set-up tasks (a matrix's initialisation) can be
left out: --from chol_dpotrf starts at the factorisation, and --from
lu_dpanel_gpu#25 at the 25th panel (the second factorisation of a run with
24 steps and --prelocked).
"""
import argparse
import json
import sys

COPY_SUFFIXES = (" in", " peer", " out", " copy-in", " copy-out")


def load(path):
    with open(path) as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M"}
    spans = []
    for e in events:
        if e.get("ph") != "X":
            continue
        start = float(e["ts"]) / 1000.0  # ms
        spans.append({
            "track": names.get(e["tid"], str(e["tid"])),
            "name": e["name"],
            "start": start,
            "end": start + float(e["dur"]) / 1000.0,
            "bytes": int(e.get("args", {}).get("bytes", 0)),
        })
    return spans


def is_copy_track(track):
    return track.endswith(COPY_SUFFIXES)


def busy_within(intervals, lo, hi):
    """Time covered by the union of intervals inside [lo, hi)."""
    total, covered_to = 0.0, lo
    for start, end in sorted(intervals):
        start, end = max(start, covered_to), min(end, hi)
        if end > start:
            total += end - start
            covered_to = end
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("--window", type=float, default=0, help="timeline window in ms (default: span/20)")
    parser.add_argument("--gaps", type=int, default=3, help="longest gaps listed per worker")
    parser.add_argument("--from", dest="start_label", default=None,
                        help="span starts at this task's first run (LABEL), or its K-th (LABEL#K)")
    args = parser.parse_args()

    spans = load(args.trace)
    if not spans:
        sys.exit("trace-summary: no events in " + args.trace)
    begin = min(s["start"] for s in spans)
    if args.start_label:
        label, _, nth = args.start_label.partition("#")
        starts = sorted(s["start"] for s in spans if s["name"] == label)
        k = int(nth) if nth else 1
        if len(starts) < k or k < 1:
            sys.exit("trace-summary: no run %d of a task labelled %s (%d runs)" % (k, label, len(starts)))
        begin = starts[k - 1]
    end = max(s["end"] for s in spans)
    span = end - begin
    spans = [s for s in spans if s["start"] >= begin]
    tracks = sorted({s["track"] for s in spans})
    workers = [t for t in tracks if not is_copy_track(t)]

    print("span %.3f ms (%.3f to %.3f ms of the trace)" % (span, begin, end))
    print("%-32s %10s %6s %7s %12s" % ("track", "busy ms", "busy", "events", "bytes"))
    for track in tracks:
        mine = [s for s in spans if s["track"] == track]
        busy = busy_within([(s["start"], s["end"]) for s in mine], begin, end)
        moved = sum(s["bytes"] for s in mine)
        print("%-32s %10.3f %5.1f%% %7d %12s" % (track[:32], busy, 100.0 * busy / span if span else 0.0,
                                                  len(mine), moved if moved else "-"))

    window = args.window if args.window > 0 else span / 20.0
    if window > 0 and workers:
        print("\nbusy share per %.3f ms window" % window)
        print("%10s  %s" % ("from ms", "  ".join("%8s" % t.split(" ")[0][:8] for t in workers)))
        intervals = {t: [(s["start"], s["end"]) for s in spans if s["track"] == t] for t in workers}
        lo = begin
        while lo < end:
            hi = min(lo + window, end)
            shares = [100.0 * busy_within(intervals[t], lo, hi) / (hi - lo) for t in workers]
            print("%10.3f  %s" % (lo - begin, "  ".join("%7.0f%%" % share for share in shares)))
            lo = hi

    if args.gaps > 0:
        print("\nlongest idle gaps between tasks")
        for track in workers:
            mine = sorted((s for s in spans if s["track"] == track), key=lambda s: s["start"])
            gaps, covered_to = [], None
            for s in mine:
                if covered_to is not None and s["start"] > covered_to:
                    gaps.append((s["start"] - covered_to, covered_to - begin, s["name"]))
                covered_to = s["end"] if covered_to is None else max(covered_to, s["end"])
            gaps.sort(reverse=True)
            listed = ", ".join("%.3f ms at %.3f before %s" % g for g in gaps[:args.gaps])
            print("%-32s %s" % (track[:32], listed or "none"))

    print("\ntasks by label (times in ms)")
    print("%-32s %-24s %7s %10s %8s %8s %8s %8s" % ("track", "label", "count", "sum", "mean", "p10", "p50", "p90"))
    for track in workers:
        by_label = {}
        for s in spans:
            if s["track"] == track:
                by_label.setdefault(s["name"], []).append(s["end"] - s["start"])
        for label, times in sorted(by_label.items(), key=lambda item: -sum(item[1])):
            times.sort()
            pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
            print("%-32s %-24s %7d %10.3f %8.3f %8.3f %8.3f %8.3f" % (track[:32], label[:24], len(times), sum(times),
                                                                     sum(times) / len(times), pick(0.1), pick(0.5),
                                                                     pick(0.9)))


if __name__ == "__main__":
    main()
