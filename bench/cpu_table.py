#!/usr/bin/env python3
"""Markdown table from a `spmv bench` CSV: a row per format, a column per matrix, for one ISA.

usage: python3 bench/cpu_table.py FILE.csv [--isa avx512] [--base csr]
Each cell: GFLOP/s (as a solver pays it) / x the base format (same matrix, same ISA, same run) /
bytes per nonzero (the footprint: padding shows here) / conversion cost in SpMVs of the format.
A format that refused the matrix (SPMV_ERR_LIMIT, no CSV row) shows "limit". A last column gives
the geometric mean of the ratios over the matrices the format ran on.
"""
import csv
import math
import sys


def short(m):
    m = m[4:] if m.startswith("gen:") else m
    return m.split("/")[-1].replace(".mtx.gz", "").replace(".mtx", "")


def main(argv):
    if not argv:
        sys.exit(__doc__)
    path, isa, base = argv[0], "avx512", "csr"
    if "--isa" in argv:
        isa = argv[argv.index("--isa") + 1]
    if "--base" in argv:
        base = argv[argv.index("--base") + 1]
    rows = [r for r in csv.DictReader(open(path)) if r["isa"] == isa]
    mats, fmts, t = [], [], {}
    for r in rows:
        if r["matrix"] not in mats:
            mats.append(r["matrix"])
        if r["format"] not in fmts:
            fmts.append(r["format"])
        t[(r["format"], r["matrix"])] = r
    print("| format | " + " | ".join(short(m) for m in mats) + " | geomean x %s |" % base)
    print("|---|" + "---|" * (len(mats) + 1))
    for f in fmts:
        cells, logs = [], []
        for m in mats:
            r, b = t.get((f, m)), t.get((base, m))
            if not r:
                cells.append("limit")
                continue
            x = float(b["spmv_s"]) / float(r["spmv_s"]) if b else float("nan")
            if b:
                logs.append(math.log(x))
            cells.append("%.2f / %.2fx / %.1f / %.1f" % (float(r["gflops"]), x, float(r["bytes_per_nnz"]),
                                                         float(r["convert_spmvs"])))
        gm = "%.2fx (%d)" % (math.exp(sum(logs) / len(logs)), len(logs)) if logs else ""
        print("| %s | " % f + " | ".join(cells) + " | %s |" % gm)


if __name__ == "__main__":
    main(sys.argv[1:])
