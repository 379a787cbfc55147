#!/usr/bin/env python3
"""The automatic selection end to end, from `spmv bench --formats auto --csv FILE`: for each
matrix and N in (100, 1000, 10000), what a user pays over N products:
  auto   the selection made for N (row auto@100, auto, auto@10000; convert_s is the whole
         selection) + N products of its choice (spmv_s, the run's median);
  csr    N products of the csr row (the user holds CSR: no conversion);
  oracle the best of every format row: its conversion + N products (csr without conversion).
Prints, per N, how many matrices are within 5% of the oracle and how many more than 2% slower
than CSR, the geometric mean of auto / csr, and the misses with the choice and the selection's
cost in CSR products. A CSV made before the per-N rows existed (one auto row) uses that row
for every N. Also the product alone: auto's (N = 1000) product over the best row's.

--same-csr: where a selection kept CSR on the caller's arrays (borrow), its products are timed
as the csr row's: the same kernel on the same arrays (side by side in one loop their medians
agree within 1%), while the bench's separate rows of a product of a few microseconds differ by
up to 13% run to run.

usage: python3 bench/e2e_table.py FILE.csv [--md] [--misses] [--same-csr]"""
import csv
import math
import sys
from collections import OrderedDict

ANCHORS = {"naive", "eigen", "graphblas", "librsb", "eigen_sym", "librsb_sym", "petsc", "mkl", "mkl_ie", "mkl_sym"}
NS = (100, 1000, 10000)
AUTO_ROW = {100: "auto@100", 1000: "auto", 10000: "auto@10000"}


def main(argv):
    files = [a for a in argv if not a.startswith("--")]
    if not files:
        print(__doc__)
        return 2
    md, misses, same = "--md" in argv, "--misses" in argv, "--same-csr" in argv
    mats = OrderedDict()
    for fn in files:
        with open(fn, newline="") as f:
            for r in csv.DictReader(f):
                mats.setdefault(r["matrix"], []).append(r)
    res = {n: [] for n in NS}
    prod = []
    for m, rs in mats.items():
        fmt = [r for r in rs if r["format"] not in ANCHORS and not r["format"].startswith("auto")
               and float(r["max_rel_err"] or 0) < 1e-6]
        csr = [r for r in fmt if r["format"] == "csr"]
        autos = {r["format"]: r for r in rs if r["format"].startswith("auto")}
        if not csr or "auto" not in autos:
            continue
        tc = min(float(r["spmv_s"]) for r in csr)
        tb = min(float(r["spmv_s"]) for r in fmt)
        prod.append((m, float(autos["auto"]["spmv_s"]) / tb, autos["auto"]["params"]))
        for n in NS:
            a = autos.get(AUTO_ROW[n], autos["auto"])
            ta = tc if same and a["params"].startswith("csr:") else float(a["spmv_s"])
            e_auto = float(a["convert_s"]) + n * ta
            e_csr = n * tc
            best, bname = None, ""
            for r in fmt:
                e = (0 if r["format"] == "csr" else float(r["convert_s"]) + float(r["tune_s"] or 0)) + n * float(r["spmv_s"])
                if best is None or e < best:
                    best, bname = e, r["format"]
            res[n].append((m, e_auto / e_csr, e_auto / best, a["params"].split(":")[0], bname,
                           float(a["convert_s"]) / tc))
    out = []
    out.append("| N | within 5% of the oracle | more than 2% slower than csr | auto / csr, geometric mean | "
               "auto / oracle, geometric mean |")
    out.append("|---|---|---|---|---|")
    for n in NS:
        r = res[n]
        k = len(r)
        w5 = sum(1 for x in r if x[2] <= 1.05)
        s2 = sum(1 for x in r if x[1] > 1.02)
        g = math.exp(sum(math.log(x[1]) for x in r) / k) if k else 0
        go = math.exp(sum(math.log(x[2]) for x in r) / k) if k else 0
        out.append("| %d | %d of %d (%.0f%%) | %d of %d | %.3fx | %.3fx |" % (n, w5, k, 100.0 * w5 / k if k else 0, s2, k, g, go))
    w = sum(1 for x in prod if x[1] <= 1.05)
    out.append("")
    out.append("Product alone (auto selected for 1000): within 5%% of the best row on %d of %d (%.0f%%), "
               "geometric mean %.3fx the best." % (w, len(prod), 100.0 * w / len(prod) if prod else 0,
                                                   math.exp(sum(math.log(x[1]) for x in prod) / len(prod)) if prod else 0))
    if misses:
        for n in NS:
            out.append("")
            out.append("N = %d: misses (more than 2%% slower than csr, or more than 5%% behind the oracle)" % n)
            out.append("| matrix | auto / csr | auto / oracle | chose | oracle | selection, CSR products |")
            out.append("|---|---|---|---|---|---|")
            for x in res[n]:
                if x[1] > 1.02 or x[2] > 1.05:
                    out.append("| %s | %.3f | %.3f | %s | %s | %.1f |" % (x[0].replace(".mtx.gz", ""), x[1], x[2], x[3], x[4], x[5]))
    print("\n".join(out if md else [l for l in out]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
