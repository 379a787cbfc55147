#!/usr/bin/env python3
"""Markdown table from a `spmv bench` CSV: a row per format, a column per matrix, for one ISA.

usage: python3 bench/cpu_table.py FILE.csv [FILE.csv ...] [--isa avx512] [--base csr]
                                  [--summary] [--short-rows 16] [--graphs a,b,c]
Each cell: GFLOP/s (as a solver pays it) / x the base format (same matrix, same ISA, same run) /
bytes per nonzero (the footprint: padding shows here) / conversion cost in SpMVs of the format.
A format that refused the matrix (SPMV_ERR_LIMIT, no CSV row) shows "limit". A last column gives
the geometric mean of the ratios over the matrices the format ran on.
--summary (for many matrices): a row per format instead: matrices run / refused (limit), the
geometric mean, minimum and maximum of x base over the matrices it ran on, the same geometric
mean over the matrices whose mean row length (nnz/rows) is below --short-rows, the lowest
ratio over the --graphs matrices (names as in the table, e.g. webgraph,PGPgiantcompo), and the
medians of bytes per nonzero and of the conversion cost in SpMVs.
"""
import csv
import math
import sys


def short(m):
    m = m[4:] if m.startswith("gen:") else m
    return m.split("/")[-1].replace(".mtx.gz", "").replace(".mtx", "")


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else float("nan")


def main(argv):
    if not argv:
        sys.exit(__doc__)
    isa, base, summary, short_rows, graphs, paths = "avx512", "csr", False, 16.0, [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--isa":
            isa = argv[i + 1]
            i += 1
        elif a == "--base":
            base = argv[i + 1]
            i += 1
        elif a == "--short-rows":
            short_rows = float(argv[i + 1])
            i += 1
        elif a == "--graphs":
            graphs = argv[i + 1].split(",")
            i += 1
        elif a == "--summary":
            summary = True
        else:
            paths.append(a)
        i += 1
    rows = [r for p in paths for r in csv.DictReader(open(p)) if r["isa"] == isa]
    mats, fmts, t = [], [], {}
    for r in rows:
        if r["matrix"] not in mats:
            mats.append(r["matrix"])
        if r["format"] not in fmts:
            fmts.append(r["format"])
        t[(r["format"], r["matrix"])] = r
    if summary:
        print("| format | run / limit | geomean x %s | min | max | geomean, rows < %g (n) | min on graphs | "
              "median B/nnz | median conversion (SpMVs) |" % (base, short_rows))
        print("|---|---|---|---|---|---|---|---|---|")
        for f in fmts:
            xs, xshort, xg, bpn, conv = [], [], [], [], []
            for m in mats:
                r, b = t.get((f, m)), t.get((base, m))
                if not r or not b:
                    continue
                x = float(b["spmv_s"]) / float(r["spmv_s"])
                xs.append(x)
                if float(r["nnz"]) < short_rows * float(r["rows"]):
                    xshort.append(x)
                if short(m) in graphs:
                    xg.append(x)
                bpn.append(float(r["bytes_per_nnz"]))
                conv.append(float(r["convert_spmvs"]))
            nb = sum(1 for m in mats if t.get((base, m)))
            print("| %s | %d / %d | %.2fx | %.2fx | %.2fx | %.2fx (%d) | %s | %.1f | %.1f |" % (
                f, len(xs), nb - len(xs), geo(xs), min(xs) if xs else float("nan"),
                max(xs) if xs else float("nan"), geo(xshort), len(xshort),
                "%.2fx" % min(xg) if xg else "", median(bpn), median(conv)))
        return
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
