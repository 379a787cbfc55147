#!/usr/bin/env python3
"""Independent check of `spmv mv`: a pure-Python Matrix Market reader and y = A*x
(exact sums with math.fsum) compared with the tool's output on the real matrices.
Usage: mv_check.py SPMV_BINARY MATRIX_DIR [MAX_NNZ]; prints RESULT like the C tests."""
import gzip, math, os, subprocess, sys, tempfile

def read_mm(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        banner = f.readline().split()
        field, sym = banner[3].lower(), banner[4].lower()
        line = f.readline()
        while line.startswith("%") or not line.strip():
            line = f.readline()
        m, n, nnz = (int(t) for t in line.split())
        rows = [[] for _ in range(m)]
        for line in f:
            t = line.split()
            if not t or t[0].startswith("%"):
                continue
            i, j = int(t[0]) - 1, int(t[1]) - 1
            v = 1.0 if field == "pattern" else float(t[2])
            rows[i].append((j, v))
            if i != j and sym in ("symmetric", "skew-symmetric"):
                rows[j].append((i, -v if sym == "skew-symmetric" else v))
    return m, n, field, rows

def main():
    tool, mdir = sys.argv[1], sys.argv[2]
    maxnnz = int(sys.argv[3]) if len(sys.argv) > 3 else -1
    passed = failed = skipped = 0
    with open(os.path.join(mdir, "INDEX.tsv")) as idx:
        header = idx.readline().rstrip("\n").split("\t")
        entries = [dict(zip(header, l.rstrip("\n").split("\t"))) for l in idx if l.strip()]
    tmp = tempfile.mkdtemp()
    for e in entries:
        name = e["name"]
        if e["field"] == "complex":
            continue
        if maxnnz >= 0 and int(e["nnz_expanded"]) > maxnnz:
            skipped += 1
            continue
        path = os.path.join(mdir, name + ".mtx.gz")
        m, n, field, rows = read_mm(path)
        x = [1.0 + ((j * 7919) % 1000) / 1000.0 for j in range(n)]
        xf = os.path.join(tmp, "x.mtx")
        with open(xf, "w") as f:
            f.write("%%%%MatrixMarket matrix array real general\n%d 1\n" % n)
            f.writelines("%.17g\n" % v for v in x)
        out = os.path.join(tmp, "y.mtx")
        r = subprocess.run([tool, "mv", "--format", "csr", path, "--x", xf, "--out", out], capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL %s: spmv mv exited %d: %s" % (name, r.returncode, r.stderr.strip()))
            failed += 1
            continue
        with open(out) as f:
            toks = [l for l in f if not l.startswith("%")]
        got = [float(t) for t in toks[1:]]
        worst = 0.0
        for i in range(m):
            ref = math.fsum(v * x[j] for j, v in rows[i])
            scale = math.fsum(abs(v * x[j]) for j, v in rows[i])
            err = abs(got[i] - ref) / scale if scale > 0 else abs(got[i] - ref)
            worst = max(worst, err)
        ok = len(got) == m and worst <= 1e-12
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL %s: %d values (want %d), max rel err %.3g" % (name, len(got), m, worst))
    print("RESULT mv_check passed=%d failed=%d skipped=%d" % (passed, failed, skipped))
    if skipped:
        print("SKIP: %d matrices above %d nonzeros not checked in this run" % (skipped, maxnnz))
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
