#!/usr/bin/env python3
"""Roofline picture from a `spmv bench` CSV, as a dependency-free SVG: one panel per matrix.

usage: python3 bench/roofline.py OUT.svg FILE.csv [--matrices "a;b"] [--isa avx512] [--title TEXT]

Each format row is a point at its arithmetic intensity (flops per byte moved: 2 nnz over the
format's bytes plus x and y, = gflops / gbs) and its measured GFLOP/s beyond the cache (filled
dot), with its in-cache rate (`gflops_cache`, open ring) above it on the same intensity: the
compute ceiling of its kernel. The slanted line is the measured read bandwidth (gbs / pct_bw),
the bound of a kernel that streams its bytes once. A dot far below the line, with its ring
above the line, streams badly; a ring on or under the line is compute-bound even in cache.
Prints the numbers behind the picture.
"""
import csv
import math
import sys

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
          "#bcbd22", "#17becf", "#000000", "#aec7e8", "#ff9896", "#98df8a", "#ffbb78", "#c5b0d5",
          "#393b79", "#637939", "#8c6d31", "#843c39"]


def load(path, mats, isa):
    rows = {}
    order = []
    for r in csv.DictReader(open(path)):
        if r["format"] in ("naive",) or not r.get("gflops_cache"):
            continue
        try:
            gf, gbs, pct, gc = float(r["gflops"]), float(r["gbs"]), float(r["pct_bw"]), float(r["gflops_cache"])
        except ValueError:
            continue
        if gc <= 0 or gbs <= 0 or pct <= 0:
            continue
        if isa and r["isa"] != isa and r["format"] != "auto":
            continue
        m = r["matrix"]
        if mats and m not in mats:
            continue
        if m not in rows:
            rows[m] = []
            order.append(m)
        name = r["format"] if not isa else r["format"]
        if not isa and r["format"] != "auto":
            name = r["format"] + "/" + r["isa"]
        rows[m].append((name, gf / gbs, gf, gc, gbs / (pct / 100.0)))
    return order, rows


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    out, path = argv[1], argv[2]
    mats, isa, title = None, None, "SpMV roofline"
    i = 3
    while i < len(argv):
        if argv[i] == "--matrices" and i + 1 < len(argv):
            mats = set(argv[i + 1].split(";"))
            i += 2
        elif argv[i] == "--isa" and i + 1 < len(argv):
            isa = argv[i + 1]
            i += 2
        elif argv[i] == "--title" and i + 1 < len(argv):
            title = argv[i + 1]
            i += 2
        else:
            sys.stderr.write("roofline.py: unknown argument %s\n" % argv[i])
            return 2
    order, rows = load(path, mats, isa)
    if not order:
        sys.stderr.write("roofline.py: no rows with gflops_cache in %s\n" % path)
        return 1
    names = []
    for m in order:
        for r in rows[m]:
            if r[0] not in names:
                names.append(r[0])
    color = {n: COLORS[k % len(COLORS)] for k, n in enumerate(names)}
    ai_all = [r[1] for m in order for r in rows[m]]
    gf_all = [v for m in order for r in rows[m] for v in (r[2], r[3])]
    ai_lo, ai_hi = min(ai_all) / 1.5, max(ai_all) * 1.5
    gf_lo, gf_hi = min(gf_all) / 1.5, max(gf_all) * 1.5
    pw, ph, ml, mt, mb = 380, 300, 60, 40, 50
    legend_w = 150
    W = ml + len(order) * (pw + 20) + legend_w
    H = mt + ph + mb
    lx0, lx1, ly0, ly1 = math.log10(ai_lo), math.log10(ai_hi), math.log10(gf_lo), math.log10(gf_hi)

    def X(k, a):
        return ml + k * (pw + 20) + (math.log10(a) - lx0) / (lx1 - lx0) * pw

    def Y(g):
        return mt + ph - (math.log10(g) - ly0) / (ly1 - ly0) * ph

    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
         % (W, H), '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="18" font-size="14">%s</text>' % (ml, title)]
    print("%-28s %-18s %8s %9s %9s %9s %6s" % ("matrix", "format", "flop/B", "GFLOP/s", "cacheGF", "bw-bound", "%roof"))
    for k, m in enumerate(order):
        x0 = ml + k * (pw + 20)
        s.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>' % (x0, mt, pw, ph))
        s.append('<text x="%d" y="%d">%s</text>' % (x0 + 4, mt - 6, m[:60]))
        for e in range(int(math.floor(lx0)), int(math.ceil(lx1)) + 1):
            for f in (1, 2, 5):
                a = f * 10 ** e
                if ai_lo <= a <= ai_hi:
                    s.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>' % (X(k, a), mt, X(k, a), mt + ph))
                    s.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>' % (X(k, a), mt + ph + 14, a))
        for e in range(int(math.floor(ly0)), int(math.ceil(ly1)) + 1):
            for f in (1, 2, 5):
                g = f * 10 ** e
                if gf_lo <= g <= gf_hi:
                    s.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>' % (x0, Y(g), x0 + pw, Y(g)))
                    if k == 0:
                        s.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (x0 - 4, Y(g) + 4, g))
        s.append('<text x="%d" y="%d" text-anchor="middle">flops per byte</text>' % (x0 + pw // 2, mt + ph + 32))
        bw = sorted(r[4] for r in rows[m])[len(rows[m]) // 2]
        pts = []
        a = ai_lo
        while a <= ai_hi * 1.0001:
            g = bw * a
            if gf_lo <= g <= gf_hi:
                pts.append("%.1f,%.1f" % (X(k, a), Y(g)))
            a *= 1.05
        if len(pts) > 1:
            s.append('<polyline points="%s" fill="none" stroke="#444" stroke-dasharray="6,3"/>' % " ".join(pts))
            s.append('<text x="%s" y="%s" fill="#444">read %.1f GB/s</text>'
                     % (pts[-1].split(",")[0], float(pts[-1].split(",")[1]) + 14, bw))
        for (n, ai, gf, gc, b) in rows[m]:
            c = color[n]
            s.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1"/>'
                     % (X(k, ai), Y(gf), X(k, ai), Y(gc), c))
            s.append('<circle cx="%.1f" cy="%.1f" r="4" fill="%s"><title>%s %.2f GFLOP/s</title></circle>'
                     % (X(k, ai), Y(gf), c, n, gf))
            s.append('<circle cx="%.1f" cy="%.1f" r="5" fill="none" stroke="%s" stroke-width="2"><title>%s in cache '
                     '%.2f GFLOP/s</title></circle>' % (X(k, ai), Y(gc), c, n, gc))
            print("%-28.28s %-18.18s %8.3f %9.2f %9.2f %9.2f %5.0f%%" % (m, n, ai, gf, gc, bw * ai, 100 * gf / (bw * ai)))
    s.append('<text x="%d" y="%d" transform="rotate(-90 %d %d)" text-anchor="middle">GFLOP/s</text>'
             % (16, mt + ph // 2, 16, mt + ph // 2))
    lx = ml + len(order) * (pw + 20)
    s.append('<text x="%d" y="%d">dot: beyond the cache</text>' % (lx, mt + 4))
    s.append('<text x="%d" y="%d">ring: in cache</text>' % (lx, mt + 18))
    for k, n in enumerate(names):
        y = mt + 40 + 15 * k
        s.append('<circle cx="%d" cy="%d" r="4" fill="%s"/><text x="%d" y="%d">%s</text>'
                 % (lx + 5, y - 4, color[n], lx + 14, y, n))
    s.append("</svg>")
    open(out, "w").write("\n".join(s) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
