#!/usr/bin/env python3
"""Automatic selection against the oracle, from `spmv bench --formats auto --csv FILE` (or
spmv-cuda's CSV): for every matrix, auto's steady-state product time (its spmv_s) over the
oracle's (the fastest row of that matrix in the same run: every format and ISA, not the naive
loop) and over CSR's (the fastest csr row), and the selection cost (auto's convert_s, in SpMVs
of the chosen format). Prints the distribution and a Markdown table (--md).

With --min, the times compared are each row's fastest sample (spmv_min_s) instead of its
median: on a shared 2-core VM whose second vCPU is at times descheduled for ~6 ms, medians
of one row can land in such a stretch and another's not.

usage: python3 bench/auto_table.py FILE.csv [FILE.csv ...] [--md] [--min] [--big NNZ]"""
import csv
import sys
from collections import OrderedDict


def main(argv):
    files = [a for a in argv if not a.startswith("--")]
    md = "--md" in argv
    col = "spmv_min_s" if "--min" in argv else "spmv_s"
    big = 1_000_000
    if "--big" in argv:
        big = int(argv[argv.index("--big") + 1])
        files = [f for f in files if f != str(big)]
    if not files:
        print(__doc__)
        return 2
    mats = OrderedDict()
    for fn in files:
        with open(fn, newline="") as f:
            for r in csv.DictReader(f):
                key = (fn, r["matrix"], r.get("precision", ""))
                mats.setdefault(key, []).append(r)
    rows = []
    for (fn, m, prec), rs in mats.items():
        auto = [r for r in rs if r["format"] == "auto"]
        others = [r for r in rs if r["format"] not in ("auto", "naive") and r.get("isa") != "anchor"]
        csr = [r for r in others if r["format"] == "csr"]
        if not auto or not others:
            continue
        a = auto[0]
        t_a = float(a[col])
        best = min(others, key=lambda r: float(r[col]))
        t_o = float(best[col])
        t_c = min(float(r[col]) for r in csr) if csr else float("nan")
        rows.append(dict(matrix=m, nnz=int(a["nnz"]), chose=a["params"].split(":")[0], oracle=best["format"],
                         oracle_isa=best["isa"], x_oracle=t_a / t_o, x_csr=t_a / t_c,
                         cost=float(a["convert_spmvs"]), cost_s=float(a["convert_s"])))
    if not rows:
        print("no matrix with an auto row")
        return 1
    n = len(rows)
    within = lambda q: sum(1 for r in rows if r["x_oracle"] <= 1 + q)
    worst = max(rows, key=lambda r: r["x_oracle"])
    slower_csr = [r for r in rows if r["x_csr"] > 1.10]
    bigs = [r for r in rows if r["nnz"] > big]
    print(f"{n} matrices: auto's product time within 1% of the oracle on {within(0.01)}, within 5% on "
          f"{within(0.05)} ({100.0 * within(0.05) / n:.0f}%), within 10% on {within(0.10)}; worst "
          f"{worst['x_oracle']:.2f}x ({worst['matrix']}: chose {worst['chose']}, oracle {worst['oracle']})")
    print(f"more than 10% slower than CSR on {len(slower_csr)}: "
          + ", ".join(f"{r['matrix']} {r['x_csr']:.2f}x ({r['chose']})" for r in slower_csr))
    if bigs:
        print(f"selection cost on the {len(bigs)} matrices above {big} entries: max "
              f"{max(r['cost'] for r in bigs):.1f} SpMVs, median {sorted(r['cost'] for r in bigs)[len(bigs) // 2]:.1f}")
    costs = sorted(r["cost"] for r in rows)
    print(f"selection cost over all: median {costs[n // 2]:.1f} SpMVs, max {costs[-1]:.1f}")
    if md:
        print()
        print("| matrix | nnz | auto chose | oracle | auto / oracle | auto / CSR | selection (SpMVs) |")
        print("|---|---:|---|---|---:|---:|---:|")
        for r in sorted(rows, key=lambda r: -r["x_oracle"]):
            print(f"| {r['matrix']} | {r['nnz']} | {r['chose']} | {r['oracle']} ({r['oracle_isa']}) | "
                  f"{r['x_oracle']:.2f} | {r['x_csr']:.2f} | {r['cost']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
