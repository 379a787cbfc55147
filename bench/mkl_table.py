#!/usr/bin/env python3
"""Ours against oneMKL, from `spmv bench --formats ...,auto,mkl,mkl_ie --csv FILE` (one run, the
rows side by side). Per input (real matrices: paths; presets: gen:...):
  csr / mkl      csr's product against MKL's plain handle (mkl_sparse_?_mv on the caller's CSR);
  csr / mkl_ie   against the inspector-executor handle (hints for 1000 products, optimize);
  best / mkl_ie  our fastest format row (every row of the run that is not an anchor or auto);
  e2e            the selection (the auto row: its convert_s is the whole selection) + 1000 of its
                 products, against mkl_ie's optimize (its convert_s) + 1000 products.
Ratios are MKL's time over ours: >= 1.0 means ours is at least as fast. "big" = more than 1M
entries. Prints the counts and geometric means the targets of docs/PERFORMANCE.md name, and
with --list every input's ratios.

usage: python3 bench/mkl_table.py FILE.csv [--list]"""
import csv
import math
import sys
from collections import OrderedDict

ANCHORS = {"naive", "eigen", "graphblas", "librsb", "eigen_sym", "librsb_sym", "petsc", "mkl", "mkl_ie", "mkl_sym"}


def gm(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def share(v, lo=1.0):
    return "%d of %d (%.0f%%)" % (sum(1 for x in v if x >= lo), len(v), 100.0 * sum(1 for x in v if x >= lo) / len(v)) if v else "-"


def main(argv):
    files = [a for a in argv if not a.startswith("--")]
    if not files:
        print(__doc__)
        return 2
    mats = OrderedDict()
    for fn in files:
        with open(fn, newline="") as f:
            for r in csv.DictReader(f):
                if r.get("op", "mv") not in ("", "mv"):
                    continue
                mats.setdefault(r["matrix"], []).append(r)
    rows = []
    for m, rs in mats.items():
        ok = [r for r in rs if float(r["max_rel_err"] or 0) < 1e-6 and float(r["spmv_s"] or 0) > 0]
        by = {}
        for r in ok:
            t = float(r["spmv_s"])
            if r["format"] not in by or t < float(by[r["format"]]["spmv_s"]):
                by[r["format"]] = r
        if "csr" not in by or "mkl_ie" not in by:
            continue
        fmts = [r for f, r in by.items() if f not in ANCHORS and not f.startswith("auto")]
        best = min(fmts, key=lambda r: float(r["spmv_s"]))
        t = lambda f: float(by[f]["spmv_s"])
        e2e = None
        if "auto" in by:
            e2e = (float(by["mkl_ie"]["convert_s"]) + 1000 * t("mkl_ie")) / (float(by["auto"]["convert_s"]) + 1000 * t("auto"))
        rows.append(dict(m=m, real=not m.startswith("gen:"), nnz=int(rs[0]["nnz"]),
                         csr_mkl=t("mkl") / t("csr") if "mkl" in by else None, csr_ie=t("mkl_ie") / t("csr"),
                         best_ie=t("mkl_ie") / float(best["spmv_s"]), best=best["format"] + "/" + best["isa"], e2e=e2e))
    real = [r for r in rows if r["real"]]
    big = [r for r in rows if r["nnz"] > 1000000]
    out = ["| | real matrices | presets | all |", "|---|---|---|---|"]
    for key, name in (("csr_mkl", "csr >= MKL's plain handle"), ("csr_ie", "csr >= mkl_ie"),
                      ("best_ie", "our fastest format >= mkl_ie"), ("e2e", "selection + 1000 products ahead of mkl_ie's")):
        cols = []
        for sel in (real, [r for r in rows if not r["real"]], rows):
            v = [r[key] for r in sel if r[key]]
            cols.append("%s; geometric mean %.2fx" % (share(v), gm(v)) if v else "-")
        out.append("| %s | %s |" % (name, " | ".join(cols)))
    v = [r["best_ie"] for r in big]
    out.append("")
    out.append("Above 1M entries (%d inputs): our fastest format against mkl_ie, geometric mean %.2fx; "
               "csr against mkl_ie %.2fx." % (len(big), gm(v), gm([r["csr_ie"] for r in big])))
    if "--list" in argv:
        out += ["", "| input | entries | csr/mkl | csr/mkl_ie | best/mkl_ie | best | e2e/mkl_ie |", "|---|---|---|---|---|---|---|"]
        for r in rows:
            f = lambda x: "%.2f" % x if x else "-"
            out.append("| %s | %d | %s | %s | %s | %s | %s |" % (r["m"].split("/")[-1].replace(".mtx.gz", ""), r["nnz"],
                                                         f(r["csr_mkl"]), f(r["csr_ie"]), f(r["best_ie"]), r["best"], f(r["e2e"])))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
