#!/usr/bin/env python3
"""Each format's ISAs side by side, from `spmv bench --formats ... --isa all --csv FILE` (one
run): per input and format, the fastest ISA, every SIMD kernel against the portable one
(generic), and, given the calibration file `spmv calibrate` wrote (--cal FILE, its double,
32-bit index line), the ISA SPMV_ISA_AUTO picks and its time over the fastest.

usage: python3 bench/isa_table.py FILE.csv [--cal CALIBRATION] [--list]"""
import csv
import sys
from collections import OrderedDict


def picks_of(path):
    p = {}
    for line in open(path):
        if line.startswith("isas machine") and " value 8 index 4 " in line:
            for tok in line.split(" picks ", 1)[1].split():
                f, isa = tok.split("=")
                p[f] = isa
    return p


def main(argv):
    files = [a for a in argv if not a.startswith("--") and (argv.index(a) == 0 or argv[argv.index(a) - 1] != "--cal")]
    cal = argv[argv.index("--cal") + 1] if "--cal" in argv else None
    if not files:
        print(__doc__)
        return 2
    picks = picks_of(cal) if cal else {}
    t = OrderedDict()
    for fn in files:
        for r in csv.DictReader(open(fn, newline="")):
            if r["isa"] in ("anchor", "compiler") or r["format"].startswith("auto") or float(r["max_rel_err"] or 0) > 1e-6:
                continue
            t.setdefault((r["matrix"], r["format"]), {})[r["isa"].replace("avx512emu", "avx512")] = float(r["spmv_s"])
    slow, near, far, out = [], 0, [], []
    out.append("| input | format | generic | avx2 | avx512 | fastest | picked | picked / fastest |")
    out.append("|---|---|---|---|---|---|---|---|")
    for (m, f), d in t.items():
        fast = min(d, key=d.get)
        g = d.get("generic")
        for isa in ("avx2", "avx512"):
            if g and isa in d and d[isa] > 1.03 * g:
                slow.append("%s %s %s %.2fx generic's time" % (m, f, isa, d[isa] / g))
        pk = picks.get(f)
        ratio = d[pk] / d[fast] if pk in d else None
        if ratio is not None:
            if ratio <= 1.03:
                near += 1
            else:
                far.append("%s %s: picked %s %.2fx the fastest (%s)" % (m, f, pk, ratio, fast))
        cell = lambda isa: "%.3g" % (d[isa] * 1e3) if isa in d else "-"
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (m, f, cell("generic"), cell("avx2"), cell("avx512"), fast,
                                                             pk or "-", "%.2f" % ratio if ratio else "-"))
    summary = ["SIMD kernels more than 3%% slower than generic: %d of %d format-input pairs" % (len(slow), len(t))]
    summary += ["  " + s for s in slow]
    if picks:
        summary.append("the picked ISA within 3%% of the fastest: %d of %d" % (near, near + len(far)))
        summary += ["  " + s for s in far]
    print("\n".join(summary + ([""] + out if "--list" in argv else [])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
