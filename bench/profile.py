#!/usr/bin/env python3
"""Performance profile (Dolan & More, as in the GPGPU survey) from `spmv bench` / `spmv-cuda bench`
CSVs, drawn as a dependency-free SVG.

usage: python3 bench/profile.py OUT.svg FILE.csv [FILE.csv ...] [--formats a,b,c] [--tau-max 8]
             [--title TEXT]

For each matrix, each format's time is its fastest ok row's spmv_s (what a solver pays per
product; failed and skipped rows, e.g. a format refusing a matrix with SPMV_ERR_LIMIT, count as
never within any factor). r(m, f) = t(m, f) / min over formats t(m, .). The profile of f is
rho_f(tau) = fraction of matrices with r(m, f) <= tau, for tau from 1 to --tau-max (log2 axis).
A format high on the left is often the fastest; one that reaches 1 early is never far off.
Prints the table behind the picture (rho at tau = 1, 1.1, 1.25, 1.5, 2, 4).
"""
import csv
import math
import sys

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
          "#bcbd22", "#17becf", "#000000", "#aec7e8", "#ff9896", "#98df8a", "#ffbb78", "#c5b0d5"]


def load(paths, only):
    best = {}  # (matrix, precision) -> {format: seconds}
    formats = []
    for p in paths:
        for r in csv.DictReader(open(p)):
            f = r["format"]
            if only and f not in only:
                continue
            if f not in formats:
                formats.append(f)
            key = (r["matrix"], r.get("precision", ""))
            d = best.setdefault(key, {})
            if r.get("status", "ok") != "ok":
                d.setdefault(f, math.inf)
                continue
            t = float(r["spmv_s"])
            if t > 0 and t < d.get(f, math.inf):
                d[f] = t
    return best, formats


def profile(best, formats, taus):
    rho = {f: [] for f in formats}
    mats = [m for m, d in best.items() if any(math.isfinite(v) for v in d.values())]
    for f in formats:
        for tau in taus:
            n = 0
            for m in mats:
                d = best[m]
                tmin = min(v for v in d.values())
                if d.get(f, math.inf) <= tau * tmin:
                    n += 1
            rho[f].append(n / len(mats) if mats else 0.0)
    return rho, len(mats)


def svg(path, rho, formats, taus, nmats, title):
    W, H, L, R, T, B = 760, 440, 60, 170, 40, 50
    pw, ph = W - L - R, H - T - B
    lmax = math.log2(taus[-1])

    def X(tau):
        return L + pw * (math.log2(tau) / lmax if lmax > 0 else 0)

    def Y(v):
        return T + ph * (1 - v)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="12">' % (W, H), '<rect width="100%" height="100%" fill="white"/>']
    out.append('<text x="%d" y="22" font-size="14">%s (%d matrices)</text>' % (L, title, nmats))
    for v in [0, 0.25, 0.5, 0.75, 1]:
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#ddd"/>' % (L, Y(v), L + pw, Y(v)))
        out.append('<text x="%g" y="%g" text-anchor="end">%g</text>' % (L - 6, Y(v) + 4, v))
    t = 1.0
    while t <= taus[-1] + 1e-9:
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#ddd"/>' % (X(t), T, X(t), T + ph))
        out.append('<text x="%g" y="%g" text-anchor="middle">%g</text>' % (X(t), T + ph + 16, t))
        t *= 2
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' % (L, T, pw, ph))
    out.append('<text x="%g" y="%d" text-anchor="middle">tau: within this factor of the fastest format '
               '(log scale)</text>' % (L + pw / 2, H - 10))
    out.append('<text x="16" y="%g" transform="rotate(-90 16 %g)" text-anchor="middle">fraction of matrices'
               '</text>' % (T + ph / 2, T + ph / 2))
    for i, f in enumerate(formats):
        c = COLORS[i % len(COLORS)]
        pts = []
        for k, tau in enumerate(taus):  # a step function: flat, then up at each tau
            if k > 0:
                pts.append("%.1f,%.1f" % (X(tau), Y(rho[f][k - 1])))
            pts.append("%.1f,%.1f" % (X(tau), Y(rho[f][k])))
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (c, " ".join(pts)))
        ly = T + 14 + 18 * i
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>' %
                   (L + pw + 14, ly - 4, L + pw + 40, ly - 4, c))
        out.append('<text x="%d" y="%d">%s</text>' % (L + pw + 46, ly, f))
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


def main(argv):
    args, only, tau_max, title = [], None, 8.0, "Performance profile"
    i = 0
    while i < len(argv):
        if argv[i] == "--formats":
            only = argv[i + 1].split(",")
            i += 2
        elif argv[i] == "--tau-max":
            tau_max = float(argv[i + 1])
            i += 2
        elif argv[i] == "--title":
            title = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) < 2:
        sys.exit(__doc__)
    best, formats = load(args[1:], only)
    if only:
        formats = [f for f in only if f in formats]
    n = 200
    taus = [2 ** (math.log2(tau_max) * k / n) for k in range(n + 1)]
    rho, nm = profile(best, formats, taus)
    svg(args[0], rho, formats, taus, nm, title)
    marks = [1, 1.1, 1.25, 1.5, 2, 4]
    r2, _ = profile(best, formats, marks)
    print("| format | " + " | ".join("tau=%g" % t for t in marks) + " |")
    print("|---|" + "---|" * len(marks))
    for f in formats:
        print("| %s | " % f + " | ".join("%.2f" % v for v in r2[f]) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
