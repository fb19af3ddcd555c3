#!/usr/bin/env python3
"""mpi_messages.py: the messages owner-computes Cholesky needs, against the ones counted.

    mpirun -np P cholesky_host -n N -t TS --mpi 2>&1 | mpi_messages.py --nt N/TS --ranks P

Replays the task graph of cholesky.c (potrf, trsm, syrk, gemm on the lower
triangle of NT x NT tiles) on the 2-D block-cyclic distribution its --mpi
flag declares (the p x q grid css_mpi_block_cyclic picks: p * q = P, p <= q,
as square as possible), with the rules of docs/mpi.md written out again here:
each task runs on the owner of the tile it writes; a tile it reads that its
rank does not hold is sent once by the rank that wrote it last, and stays
cached there until it is written again. Initialisation writes every tile on
its owner and needs no message. Then reads the css-mpi: lines (CSS_STATS=1)
and checks that every rank sent and received exactly that many messages and
bytes. Exits 1 on any difference or a missing rank.
"""
import argparse
import re
import sys


def grid(ranks):
    p = 1
    d = 1
    while d * d <= ranks:
        if ranks % d == 0:
            p = d
        d += 1
    return p, ranks // p


def expected(nt, ranks):
    p, q = grid(ranks)
    owner = lambda i, j: (i % p) * q + (j % q)
    holders = {}  # tile -> set of ranks holding its current value
    sends = [0] * ranks
    receives = [0] * ranks
    for j in range(nt):
        for i in range(j, nt):
            holders[(i, j)] = {owner(i, j)}  # chol_dinit, on the owner
    writer = {tile: owner(*tile) for tile in holders}

    def task(reads, written):
        rank = owner(*written)
        for tile in reads:
            if rank not in holders[tile]:
                sends[writer[tile]] += 1
                receives[rank] += 1
                holders[tile].add(rank)
        holders[written] = {rank}
        writer[written] = rank

    for k in range(nt):
        task([(k, k)], (k, k))  # potrf
        for i in range(k + 1, nt):
            task([(k, k), (i, k)], (i, k))  # trsm
        for i in range(k + 1, nt):
            for j in range(k + 1, i):
                task([(i, k), (j, k), (i, j)], (i, j))  # gemm
            task([(i, k), (i, i)], (i, i))  # syrk
    return sends, receives


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nt", type=int, required=True, help="tiles per row and column (n / ts)")
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--tile-bytes", type=int, default=0, help="also check bytes (ts * ts * 8 for d)")
    args = parser.parse_args()
    sends, receives = expected(args.nt, args.ranks)
    counted = {}
    text = sys.stdin.read()
    for match in re.finditer(r"css-mpi: rank=(\d+)/(\d+) .*?sends=(\d+) bytes_sent=(\d+) receives=(\d+) "
                             r"bytes_received=(\d+)", text):
        rank, size = int(match.group(1)), int(match.group(2))
        if size != args.ranks:
            print(f"mpi_messages: rank {rank} ran on {size} ranks, not {args.ranks}")
            return 1
        counted[rank] = tuple(int(match.group(g)) for g in range(3, 7))
    status = 0
    for rank in range(args.ranks):
        want = (sends[rank], receives[rank])
        if rank not in counted:
            print(f"mpi_messages: rank {rank}: no css-mpi: line (run with CSS_STATS=1)")
            status = 1
            continue
        got_sends, got_bytes_sent, got_receives, got_bytes_received = counted[rank]
        ok = (got_sends, got_receives) == want
        if args.tile_bytes:
            ok = ok and got_bytes_sent == sends[rank] * args.tile_bytes
            ok = ok and got_bytes_received == receives[rank] * args.tile_bytes
        print(f"mpi_messages: rank {rank}: sends {got_sends} receives {got_receives}, "
              f"the graph implies {want[0]} and {want[1]}: {'ok' if ok else 'DIFFERENT'}")
        status |= 0 if ok else 1
    print(f"mpi_messages: {'PASS' if status == 0 else 'FAIL'} ({sum(sends)} messages in all)")
    return status


if __name__ == "__main__":
    sys.exit(main())
