#!/usr/bin/env python3
"""Plot bench/cholesky results in the manner of Figure 3 of the GPUSs paper.

    python3 bench/cholesky/plot.py <results.csv> [out-dir]

Writes into out-dir (default: the CSV's folder):
  cholesky_gpus<k>.png   GFLOP/s against n, one curve per cache policy (best tile
                         size at each n), with the vendor curves alongside
  cholesky_single.png    the same for single precision, write-back (if measured)
  cholesky_speedup.png   speedup against the number of GPUs, write-back, per n,
                         relative to GPUSs on one GPU (cusolverMg dashed)
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

POLICIES = [("wb", "write-back", "o-"), ("wt", "write-through", "s-"), ("nocache", "no cache", "^-")]


# The example's variants: potrf placement, panel (--inverse-trsm or the
# paper's trsm), legend suffix, line style.
VARIANTS = [
    ("gpu", "inverse", "", {}),
    ("gpu", "solve", ", trsm panel", {"alpha": 0.6, "linestyle": "--"}),
    ("host", "solve", ", paper (potrf on host, trsm)", {"alpha": 0.6, "linestyle": ":"}),
]


def panel(row):
    """The row's panel variant; CSVs from before 2026-11-23 had only the trsm panel."""
    return row.get("trsm") or "solve"


def load(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("status", "ok") == "ok" and r.get("gflops")]
    for r in rows:
        r["n"] = int(r["n"])
        r["gpus"] = int(r["gpus"] or 0)
        r["gflops"] = float(r["gflops"])
    return rows


def best_by_n(rows):
    """{n: best GFLOP/s} over the rows (e.g. over tile sizes)."""
    best = {}
    for r in rows:
        best[r["n"]] = max(best.get(r["n"], 0.0), r["gflops"])
    return sorted(best.items())


def plot_curve(ax, points, fmt, label, **kw):
    if "linestyle" in kw:  # the variant's line style replaces the policy's
        fmt = "".join(c for c in fmt if c not in "-:")
    if points:
        ax.plot([n for n, _ in points], [g / 1000 for _, g in points], fmt, label=label, **kw)


def rate_plot(rows, gpus, prec, path, title):
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    gpuss = [r for r in rows if r["impl"] == "gpuss" and r["gpus"] == gpus and r["prec"] == prec]
    for policy, name, fmt in POLICIES:
        for potrf, trsm, suffix, extra in VARIANTS:
            sel = [r for r in gpuss if r["policy"] == policy and r.get("potrf", "gpu") == potrf
                   and panel(r) == trsm]
            plot_curve(ax, best_by_n(sel), fmt, f"GPUSs {name}{suffix}", **extra)
    vendor = [r for r in rows if r["impl"] != "gpuss" and r["prec"] == prec]
    if gpus == 1:
        plot_curve(ax, best_by_n([r for r in vendor if r["impl"] == "cusolverDn"]), "k--", "cusolverDn (on device)")
        plot_curve(ax, best_by_n([r for r in vendor if r["impl"] == "cusolverDn-h2h"]), "k:",
                   "cusolverDn (host to host)")
    plot_curve(ax, best_by_n([r for r in vendor if r["impl"] == "cusolverMg" and r["gpus"] == gpus]), "r--",
               f"cusolverMg, {gpus} GPU{'s' if gpus > 1 else ''} (on device)")
    plot_curve(ax, best_by_n([r for r in vendor if r["impl"] == "openblas"]), "g*-.", "OpenBLAS dpotrf (host)")
    if not ax.lines:
        plt.close(fig)
        return False
    ax.set_xlabel("matrix size n")
    ax.set_ylabel("TFLOP/s  (n³/3 per second)")
    ax.set_title(title)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def speedup_plot(rows, path):
    wb = [r for r in rows if r["impl"] == "gpuss" and r["prec"] == "d" and r["policy"] == "wb"
          and r.get("potrf", "gpu") == "gpu"]
    if any(panel(r) == "inverse" for r in wb):  # the benchmark's main series
        wb = [r for r in wb if panel(r) == "inverse"]
    mg = [r for r in rows if r["impl"] == "cusolverMg"]
    gpuss_rate = defaultdict(dict)  # n -> gpus -> best GFLOP/s
    for r in wb:
        gpuss_rate[r["n"]][r["gpus"]] = max(gpuss_rate[r["n"]].get(r["gpus"], 0.0), r["gflops"])
    mg_rate = defaultdict(dict)
    for r in mg:
        mg_rate[r["n"]][r["gpus"]] = max(mg_rate[r["n"]].get(r["gpus"], 0.0), r["gflops"])
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    max_gpus = 1
    for i, n in enumerate(sorted(gpuss_rate)):
        rates = gpuss_rate[n]
        if 1 not in rates or len(rates) < 2:
            continue
        color = f"C{i % 10}"
        gs = sorted(rates)
        max_gpus = max(max_gpus, gs[-1])
        ax.plot(gs, [rates[g] / rates[1] for g in gs], "o-", color=color, label=f"GPUSs n={n}")
        if 1 in mg_rate.get(n, {}):
            ms = sorted(mg_rate[n])
            ax.plot(ms, [mg_rate[n][g] / mg_rate[n][1] for g in ms], "x--", color=color, alpha=0.6,
                    label=f"cusolverMg n={n}")
    if not ax.lines:
        plt.close(fig)
        return False
    ax.plot([1, max_gpus], [1, max_gpus], color="grey", lw=0.8, label="linear")
    ax.set_xlabel("GPUs")
    ax.set_ylabel("speedup over 1 GPU (same implementation)")
    ax.set_title("Cholesky, double, write-back: speedup")
    ax.set_xticks(range(1, max_gpus + 1))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = load(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(sys.argv[1]))
    os.makedirs(out, exist_ok=True)
    written = []
    for g in sorted({r["gpus"] for r in rows if r["impl"] == "gpuss"}):
        path = os.path.join(out, f"cholesky_gpus{g}.png")
        if rate_plot(rows, g, "d", path, f"Cholesky, double, {g} GPU{'s' if g > 1 else ''}"):
            written.append(path)
    singles = sorted({r["gpus"] for r in rows if r["impl"] == "gpuss" and r["prec"] == "s"})
    if singles:
        path = os.path.join(out, "cholesky_single.png")
        if rate_plot(rows, singles[-1], "s", path, f"Cholesky, single, {singles[-1]} GPUs"):
            written.append(path)
    path = os.path.join(out, "cholesky_speedup.png")
    if speedup_plot(rows, path):
        written.append(path)
    for p in written:
        print(p)
    if not written:
        sys.exit("plot.py: no successful rows to plot")


if __name__ == "__main__":
    main()
