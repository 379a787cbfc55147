#!/usr/bin/env python3
"""Issue 13's comparison, from `spmv bench --isa auto --csv FILE` runs (the rows timed side by
side): per matrix, the library's default CSR (the csr row at the ISA the library picks) against
the plain loop (the naive row: omp-for, -O3 -march=native) and the anchor libraries (rows whose
isa is "anchor": eigen, graphblas, librsb), and the best library format against the loop and
GraphBLAS on the graphs. Ratios are t_other / t_ours (above 1: the library is faster), on the
medians (spmv_s). Prints the target lines and, with --md, a Markdown table of every matrix.

Graphs: the matrices of ../shared/matrices/INDEX.tsv whose class starts with "graph" and is not
mesh/geometric (power-law, social, web, citation, VSP, redistricting), plus the generated
power-law presets (rmat, webgraph).

usage: python3 bench/anchor_table.py FILE.csv [FILE.csv ...] [--md] [--index INDEX.tsv]"""
import csv
import math
import os
import sys
from collections import OrderedDict

LIB_EXCLUDE = ("naive", "auto")


def graph_names(index):
    g = set()
    if index and os.path.exists(index):
        with open(index, newline="") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                c = r.get("class", "")
                if c.startswith("graph") and "mesh" not in c:
                    g.add(r["name"])
    return g


def is_graph(m, graphs):
    base = m.split(".mtx")[0]
    return base in graphs or m.startswith("gen:rmat") or m.startswith("gen:webgraph")


def gmean(v):
    v = [x for x in v if x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def main(argv):
    md = "--md" in argv
    index = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "matrices", "INDEX.tsv")
    if "--index" in argv:
        index = argv[argv.index("--index") + 1]
    files = [a for a in argv if not a.startswith("--") and a != index]
    if not files:
        print(__doc__)
        return 2
    graphs = graph_names(index)
    mats = OrderedDict()
    for fn in files:
        with open(fn, newline="") as f:
            for r in csv.DictReader(f):
                mats.setdefault((r["matrix"], r.get("precision", "")), []).append(r)
    rows = []
    for (m, prec), rs in mats.items():
        t = lambda r: float(r["spmv_s"])
        loop = [t(r) for r in rs if r["format"] == "naive"]
        csr = [t(r) for r in rs if r["format"] == "csr" and r["isa"] != "anchor"]
        anch = {r["format"]: t(r) for r in rs if r["isa"] == "anchor"}
        lib = [(t(r), r["format"] + "/" + r["isa"]) for r in rs
               if r["format"] not in LIB_EXCLUDE and r["isa"] != "anchor"]
        if not loop or not csr:
            continue
        best_anchor = min(anch.values()) if anch else None
        best_lib = min(lib) if lib else (None, "")
        rows.append(dict(m=m, nnz=int(rs[0]["nnz"]), loop=loop[0], csr=min(csr), anch=anch,
                         best_anchor=best_anchor, best_lib=best_lib[0], best_lib_name=best_lib[1],
                         graph=is_graph(m, graphs)))
    n = len(rows)
    if not n:
        print("no matrix with both a naive and a csr row")
        return 1
    x_loop = [r["loop"] / r["csr"] for r in rows]
    print(f"{n} matrices")
    print(f"default CSR vs the plain loop: >= 1.0x on {sum(x >= 1.0 for x in x_loop)}/{n} "
          f"({100.0 * sum(x >= 1.0 for x in x_loop) / n:.0f}%; target 95%), geometric mean {gmean(x_loop):.3f}x "
          f"(target 1.15x); small (< 10k nonzeros): "
          f"{sum(1 for r, x in zip(rows, x_loop) if r['nnz'] < 10000 and x >= 1.0)}/"
          f"{sum(1 for r in rows if r['nnz'] < 10000)}")
    with_a = [r for r in rows if r["best_anchor"]]
    if with_a:
        xa = [r["best_anchor"] / r["csr"] for r in with_a]
        print(f"default CSR vs the best anchor: >= 1.0x on {sum(x >= 1.0 for x in xa)}/{len(with_a)} "
              f"({100.0 * sum(x >= 1.0 for x in xa) / len(with_a):.0f}%; target 90%), geometric mean {gmean(xa):.3f}x")
        names = sorted({k for r in with_a for k in r["anch"]})
        for a in names:
            v = [r["anch"][a] / r["csr"] for r in with_a if a in r["anch"]]
            print(f"  vs {a}: geometric mean {gmean(v):.3f}x, CSR faster on {sum(x >= 1.0 for x in v)}/{len(v)}")
    g = [r for r in rows if r["graph"]]
    if g:
        xl = [r["loop"] / r["best_lib"] for r in g]
        print(f"graphs ({len(g)}): best library format vs the loop >= 1.3x on {sum(x >= 1.3 for x in xl)}/{len(g)} "
              f"(geometric mean {gmean(xl):.3f}x)")
        gg = [r for r in g if "graphblas" in r["anch"]]
        if gg:
            xg = [r["anch"]["graphblas"] / r["best_lib"] for r in gg]
            print(f"  vs GraphBLAS >= 1.1x on {sum(x >= 1.1 for x in xg)}/{len(gg)} (geometric mean {gmean(xg):.3f}x)")
    if md:
        names = sorted({k for r in rows for k in r["anch"]})
        print()
        print("| " + " | ".join(["matrix", "nnz", "loop/CSR"] + [f"{a}/CSR" for a in names] +
                                 ["best library format", "loop/best", "graph"]) + " |")
        print("|---|---:|---:|" + "---:|" * len(names) + "---|---:|---|")
        for r in rows:
            cells = [f"{r['anch'][a] / r['csr']:.2f}" if a in r["anch"] else "-" for a in names]
            print("| " + " | ".join([r["m"], str(r["nnz"]), f"{r['loop'] / r['csr']:.2f}"] + cells +
                                     [r["best_lib_name"], f"{r['loop'] / r['best_lib']:.2f}",
                                      "yes" if r["graph"] else ""]) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
