#!/usr/bin/env python3
"""The order of a tiled GEMM's products against a host link, offline.

One device runs C += A B's nt^3 tile products in a given order, one at a time,
each taking `task_ms`; every tile (A, B or C) is fetched once, in the order the
products first need it, at `tiles_per_ms`; a C tile goes home after its last
product at the same rate. The figure is the kernels' share of the run: what an
order costs when the link, not the GPU, sets the pace at the start and the end.

    order_model.py [--nt 16] [--rate 1.0] [--task-ms 0.30]

At tile 2048 (33.5 MB), 1.0 tile a millisecond is 33.5 GB/s, the staged copies of
a first run on one H200. performance.md, seventh session: step order 75% at
nt = 16, the plain triple loop in program order 85%, loops blocked by 4 tiles 93%
(the modelled device agreed within 2 points at nt = 12).
"""
import argparse


def run_time(order, rate, task_ms):
    last = {}
    for index, (i, j, k) in enumerate(order):
        last[(i, j)] = index
    have, fetched, end, home = set(), 0.0, 0.0, 0.0
    for index, (i, j, k) in enumerate(order):
        for tile in (("A", i, k), ("B", k, j), ("C", i, j)):
            if tile not in have:
                have.add(tile)
                fetched += 1.0 / rate
        end = max(end, fetched) + task_ms
        if last[(i, j)] == index:
            home = max(home, end) + 1.0 / rate
    return max(end, home)


def triple_loop(nt):
    return [(i, j, k) for i in range(nt) for j in range(nt) for k in range(nt)]


def step_order(nt):
    return [(i, j, k) for k in range(nt) for i in range(nt) for j in range(nt)]


def blocked(nt, bt):
    order = []
    for ib in range(0, nt, bt):
        for jb in range(0, nt, bt):
            for kb in range(0, nt, bt):
                for i in range(ib, min(ib + bt, nt)):
                    for j in range(jb, min(jb + bt, nt)):
                        for k in range(kb, min(kb + bt, nt)):
                            order.append((i, j, k))
    return order


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nt", type=int, default=16, help="tiles per row and column")
    parser.add_argument("--rate", type=float, default=1.0, help="tiles a millisecond over the link")
    parser.add_argument("--task-ms", type=float, default=0.30, help="one tile product, ms")
    args = parser.parse_args()
    kernels = args.nt**3 * args.task_ms
    orders = {"step order (critical path)": step_order(args.nt), "triple loop": triple_loop(args.nt)}
    for bt in (2, 4, 8):
        orders[f"blocked by {bt}"] = blocked(args.nt, bt)
    for name, order in orders.items():
        print(f"{name:28s} {100 * kernels / run_time(order, args.rate, args.task_ms):5.1f}% of the kernels' rate")


if __name__ == "__main__":
    main()
