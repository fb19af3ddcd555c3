#!/usr/bin/env python3
"""Summarise and plot bench/gemm results.

    python3 bench/gemm/plot.py <results.csv> [out-dir]

Prints a table (TFLOP/s per implementation and n, and GPUSs against the two
anchors of issue 21: cublasXt from pageable memory and cublas with the
matrices on the GPU). With matplotlib, also writes into out-dir (default: the
CSV's folder):
  gemm_d.png   TFLOP/s per n, one bar per implementation, double precision
  gemm_s.png   the same for single precision (if measured)
Without matplotlib it prints the table only and says so.
"""
import csv
import os
import sys

# (impl, memory, ts or None, legend), in the order of the bars.
SERIES = [
    ("gpuss", "first-run", "2048", "GPUSs, first run (tile 2048)"),
    ("gpuss", "first-run", "4096", "GPUSs, first run (tile 4096)"),
    ("gpuss", "prelocked", "2048", "GPUSs, second run (pre-locked)"),
    ("cublas", "device", None, "cublas gemm, on the GPU"),
    ("cublasXt", "pageable", None, "cublasXt, pageable"),
    ("cublasXt-pin", "pageable", None, "cublasXt, pinning itself"),
    ("cublasXt-pinned", "pinned", None, "cublasXt, pre-pinned"),
]


def load(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("status") == "ok" and r.get("gflops")]
    for r in rows:
        r["n"] = int(r["n"])
        r["gflops"] = float(r["gflops"])
    return rows


def rate(rows, prec, n, impl, memory, ts):
    """Best GFLOP/s of the series at n, or None."""
    sel = [r["gflops"] for r in rows if r["prec"] == prec and r["n"] == n and r["impl"] == impl
           and r["memory"] == memory and (ts is None or r["ts"] == ts)]
    return max(sel) if sel else None


def table(rows, prec):
    sizes = sorted({r["n"] for r in rows if r["prec"] == prec})
    if not sizes:
        return
    print(f"\nGEMM, {'double' if prec == 'd' else 'single'} precision, TFLOP/s (2 n^3 / seconds)")
    print("| series | " + " | ".join(f"n = {n}" for n in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for impl, memory, ts, legend in SERIES:
        values = [rate(rows, prec, n, impl, memory, ts) for n in sizes]
        if any(v is not None for v in values):
            print(f"| {legend} | " + " | ".join("—" if v is None else f"{v / 1000:.1f}" for v in values) + " |")
    for n in sizes:
        ours = rate(rows, prec, n, "gpuss", "first-run", "2048")
        xt = rate(rows, prec, n, "cublasXt", "pageable", None)
        dev = rate(rows, prec, n, "cublas", "device", None)
        if ours is None:
            continue
        parts = []
        if xt:
            parts.append(f"{ours / xt:.2f} x cublasXt (target 1.3)")
        if dev:
            parts.append(f"{100 * ours / dev:.0f}% of cublas on the GPU (target 90%)")
        if parts:
            print(f"n = {n}: GPUSs first run = " + ", ".join(parts))


def plot(rows, prec, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = sorted({r["n"] for r in rows if r["prec"] == prec})
    series = [s for s in SERIES if any(rate(rows, prec, n, s[0], s[1], s[2]) for n in sizes)]
    if not sizes or not series:
        return False
    fig, ax = plt.subplots(figsize=(7.2, 4.6))
    width = 0.8 / len(series)
    for k, (impl, memory, ts, legend) in enumerate(series):
        xs, ys = [], []
        for i, n in enumerate(sizes):
            v = rate(rows, prec, n, impl, memory, ts)
            if v is not None:
                xs.append(i + (k - (len(series) - 1) / 2) * width)
                ys.append(v / 1000)
        ax.bar(xs, ys, width, label=legend)
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels([f"n = {n}" for n in sizes])
    ax.set_ylabel("TFLOP/s  (2 n³ per second)")
    ax.set_title(f"C += A B from host memory, {'double' if prec == 'd' else 'single'}, 1 GPU")
    ax.grid(axis="y", alpha=0.3)
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
        path = os.path.join(out, f"gemm_{prec}.png")
        if plot(rows, prec, path):
            print(path)


if __name__ == "__main__":
    main()
