#!/usr/bin/env python3
"""Markdown tables from `spmv-cuda bench` CSVs (the README's GPU tables are this script's output).

usage: python3 bench/gpu_table.py FILE.csv [FILE.csv ...]
One table per file: a row per format, a column per matrix; each cell is
GFLOP/s (as a solver pays it: x scatter included for the formats that embed x) / % of the
measured read bandwidth / x cuSPARSE default / x cuSPARSE CSR_ALG2. A failed row prints its status.
"""
import csv
import sys


def short(m):
    m = m[4:] if m.startswith("gen:") else m
    return {"stencil3d:n=80,pts=27": "stencil27 (13.5M)", "stencil3d:n=110,pts=27": "stencil27 (35.9M)",
            "band:n=2000000,bw=3": "band bw=3"}.get(m, m)


def table(path):
    rows = list(csv.DictReader(open(path)))
    mats, fmts, cell, params = [], [], {}, {}
    for r in rows:
        if r["matrix"] not in mats:
            mats.append(r["matrix"])
        if r["format"] not in fmts:
            fmts.append(r["format"])
        if r["status"] != "ok":
            c = r["status"]
        else:
            c = "%.0f / %.0f%% / %.2fx / %.2fx" % (float(r["gflops"]), float(r["pct_read_bw"]),
                                                    float(r["x_cusparse"]), float(r["x_cusparse_alg2"]))
        cell[(r["format"], r["matrix"])] = c
        params.setdefault(r["format"], set()).add(r["params"])
    out = ["| format | " + " | ".join(short(m) for m in mats) + " |",
           "|---|" + "---|" * len(mats)]
    for f in fmts:
        out.append("| %s | " % f + " | ".join(cell.get((f, m), "") for m in mats) + " |")
    r0 = rows[0]
    out.append("")
    out.append("%s, %s precision; read bandwidth %.0f GB/s, copy %.0f GB/s (measured in the run)" %
               (r0["device"], r0["precision"], float(r0["read_gbs"]),
                float(r0["copy_gbs"])))
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        print("**%s**\n" % p.split("/")[-1])
        print(table(p))
        print()
