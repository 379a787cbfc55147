#!/usr/bin/env python3
"""Side-by-side table of two sets of `spmv bench` CSVs (the same matrices, formats and ISA,
e.g. a commit and the one before it, run alternately): per matrix and format the median over
the runs of GFLOP/s beyond the cache, its ratio to the same run's csr row, % of the read
bandwidth, and the in-cache rate (`gflops_cache`) with its ratio to csr's. Markdown on stdout.

usage: python3 bench/kernel_table.py OLD.csv[,OLD2.csv...] NEW.csv[,NEW2.csv...] [--formats a,b]
"""
import csv
import statistics
import sys


def load(paths, only):
    d = {}
    for p in paths.split(","):
        rows = list(csv.DictReader(open(p)))
        csr = {r["matrix"]: r for r in rows if r["format"] == "csr"}
        for r in rows:
            if not r.get("gflops_cache") or r["matrix"] not in csr or (only and r["format"] not in only):
                continue
            c = csr[r["matrix"]]
            g, gc = float(r["gflops"]), float(r["gflops_cache"])
            d.setdefault((r["matrix"], r["format"]), []).append(
                (g, g / float(c["gflops"]), float(r["pct_bw"]), gc, gc / max(float(c["gflops_cache"]), 1e-12)))
    return d


def med(v, i):
    return statistics.median(t[i] for t in v)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    only = set(argv[argv.index("--formats") + 1].split(",")) if "--formats" in argv else None
    old, new = load(argv[1], only), load(argv[2], only)
    print("| matrix | format | GFLOP/s | x csr | % bw | in cache GFLOP/s | x csr in cache | before: x csr | before: x csr in cache |")
    print("|---|---|---|---|---|---|---|---|---|")
    for k in sorted(new):
        n, o = new[k], old.get(k)
        m = k[0].split("/")[-1].replace(".mtx.gz", "")
        print("| %s | %s | %.2f | %.2f | %.0f%% | %.2f | %.2f | %s | %s |" % (
            m, k[1], med(n, 0), med(n, 1), med(n, 2), med(n, 3), med(n, 4),
            "%.2f" % med(o, 1) if o else "-", "%.2f" % med(o, 4) if o else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
