#!/usr/bin/env python3
"""Summarise and plot bench/lu results.

    python3 bench/lu/plot.py <results.csv> [out-dir]

Prints a table (TFLOP/s, (2/3) n^3 per second, per series and n) and GPUSs's
first run against cusolverDn getrf with the matrix on the GPU, the anchor of
issue 21 (target: at least 0.85 at n = 49152 on one H200). With matplotlib,
also writes into out-dir (default: the CSV's folder):
  lu_d.png   TFLOP/s against n, one curve per series, double precision
  lu_s.png   the same for single precision (if measured)
Without matplotlib it prints the table only and says so.
"""
import csv
import os
import sys

# (impl, ts or None, panel, swaps, memory, legend, line style). ts "main": the
# main runs' tile, 3072 where it divides n, else 2048 (run.sh, main_tile).
SERIES = [
    ("gpuss", "main", "gpu", "groups", "first-run", "GPUSs, panels on the GPU, swaps in groups", "o-"),
    ("gpuss", "2048", "gpu", "groups", "first-run", "GPUSs, tile 2048", "^:"),
    ("gpuss", "1024", "gpu", "groups", "first-run", "GPUSs, tile 1024", "^:"),
    ("gpuss", "main", "gpu", "tiles", "first-run", "GPUSs, swaps per tile", "x--"),
    ("gpuss", "main", "gpu", "columns", "first-run", "GPUSs, swaps per block column", "s--"),
    ("gpuss", "main", "host", "groups", "first-run", "GPUSs, panels on the host", "v:"),
    ("gpuss", "main", "gpu", "groups", "prelocked", "GPUSs, second run (pre-locked)", "D:"),
    ("cusolverDn-getrf", None, "", "", "device", "cusolverDn getrf, on the GPU", "k--"),
    ("cusolverDn-getrf-h2h", None, "", "", "pageable", "cusolverDn getrf, host to host", "k:"),
]
TARGET = 0.85
VENDOR_ON_GPU = next(s for s in SERIES if s[0] == "cusolverDn-getrf")  # the anchor


def load(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("status") == "ok" and r.get("gflops")]
    for r in rows:
        r["n"] = int(r["n"])
        r["gflops"] = float(r["gflops"])
    return rows


def main_tile(n):
    return "3072" if n % 3072 == 0 else "2048"


def rate(rows, prec, n, series):
    impl, ts, panel, swaps, memory = series[:5]
    if ts == "main":
        ts = main_tile(n)
    sel = [r["gflops"] for r in rows if r["prec"] == prec and r["n"] == n and r["impl"] == impl
           and (ts is None or r["ts"] == ts) and r["panel"] == panel and r["swaps"] == swaps
           and r["memory"] == memory]
    return max(sel) if sel else None


def table(rows, prec):
    sizes = sorted({r["n"] for r in rows if r["prec"] == prec})
    if not sizes:
        return
    print(f"\nLU with partial pivoting, {'double' if prec == 'd' else 'single'} precision, "
          "TFLOP/s ((2/3) n^3 / seconds)")
    print("| series | " + " | ".join(f"n = {n}" for n in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for s in SERIES:
        values = [rate(rows, prec, n, s) for n in sizes]
        if any(v is not None for v in values):
            print(f"| {s[5]} | " + " | ".join("—" if v is None else f"{v / 1000:.1f}" for v in values) + " |")
    for n in sizes:
        ours, vendor = rate(rows, prec, n, SERIES[0]), rate(rows, prec, n, VENDOR_ON_GPU)
        if ours and vendor:
            print(f"n = {n}: GPUSs first run = {ours / vendor:.2f} x cusolverDn getrf on the GPU "
                  f"(target >= {TARGET})")


def plot(rows, prec, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    sizes = sorted({r["n"] for r in rows if r["prec"] == prec})
    for s in SERIES:
        points = [(n, rate(rows, prec, n, s)) for n in sizes]
        points = [(n, v) for n, v in points if v is not None]
        if points:
            ax.plot([n for n, _ in points], [v / 1000 for _, v in points], s[6], label=s[5])
    if not ax.lines:
        plt.close(fig)
        return False
    ax.set_xlabel("matrix size n")
    ax.set_ylabel("TFLOP/s  ((2/3) n³ per second)")
    ax.set_title(f"LU with partial pivoting (getrf), {'double' if prec == 'd' else 'single'}, 1 GPU")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if not os.path.exists(sys.argv[1]):
        sys.exit(f"plot.py: {sys.argv[1]} does not exist")
    rows = load(sys.argv[1])
    if not rows:
        sys.exit("plot.py: no successful rows")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(sys.argv[1]))
    for prec in ("d", "s"):
        table(rows, prec)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("\nplot.py: matplotlib is not installed: no plots (the table above has the figures)")
        return
    os.makedirs(out, exist_ok=True)
    for prec in ("d", "s"):
        path = os.path.join(out, f"lu_{prec}.png")
        if plot(rows, prec, path):
            print(path)


if __name__ == "__main__":
    main()
