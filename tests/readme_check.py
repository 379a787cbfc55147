#!/usr/bin/env python3
"""The README and docs as a user meets them:
 1. the README's format table has one row per entry of formats/registry.h, in its order, with
    the registry's family, CPU and GPU columns;
 2. every relative link and image in README.md, docs/*.md and bench/results/*.md points to a
    file of the repository, and every repository path they name in backticks exists (paths with
    placeholders, and the test data beside the repository, aside);
 3. every ```c block of the README is compiled (gcc, -Wall -Werror) and run; every ```cuda block
    is compiled for the CPU emulation of the CUDA model and run, and compiled by nvcc for sm_90
    where nvcc is present (in the full suite, SPMV_TEST_FULL=1) (at -O0: what is checked is that they build and give their results);
 4. every speed figure of the README's text (1.40x, 1.36-1.54x, ...) is written in
    docs/PERFORMANCE.md, where its machine, date and commit are: one source for both pages.
Prints FAIL lines and a RESULT line."""
import glob
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
passed = failed = skipped = 0


def check(ok, msg):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + msg)


readme = open("README.md").read()

# 1. the format table against the registry
rows = re.findall(r"^SPMV_FORMAT\((\w+),\s*\w+,\s*(\w+),\s*(\d),\s*(\d)", open("formats/registry.h").read().split("TEST-ONLY ROWS")[0], re.M)
table = []
m = re.search(r"^\| format \| family \| CPU \| GPU \|.*\n\|[-|]+\|\n((?:\|.*\n)+)", readme, re.M)
check(m is not None, "README: no format table (| format | family | CPU | GPU | ...)")
if m:
    for line in m.group(1).splitlines():
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        table.append((c[0].strip("`"), c[1], "1" if c[2] == "yes" else "0", "1" if c[3] == "yes" else "0"))
check([r[0] for r in table] == [r[0] for r in rows],
      "README format table %s, registry %s" % ([r[0] for r in table], [r[0] for r in rows]))
for t, r in zip(table, rows):
    check(t == r, "README format table row %s: %s, registry says family %s, CPU %s, GPU %s" % (t[0], t[1:], r[1], r[2], r[3]))

# 2. links and file names
pages = ["README.md"] + sorted(glob.glob("docs/*.md")) + sorted(glob.glob("bench/results/*.md"))
exts = (".h", ".c", ".cu", ".cuh", ".sh", ".py", ".md", ".csv", ".svg", ".cc", ".in", ".cmake")
for page in pages:
    text = open(page).read()
    base = os.path.dirname(page)
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+://", link) or link.startswith("#"):
            continue
        target = os.path.normpath(os.path.join(base, link.split("#")[0]))
        check(os.path.exists(target), "%s: link to %s: no such file" % (page, link))
    for name in re.findall(r"`([A-Za-z0-9_./-]+)`", text):
        if "/" not in name or not name.endswith(exts) or name.startswith("../") or name.startswith("build/"):
            continue
        if os.path.exists(name) or os.path.exists(os.path.join(base, name)):
            passed += 1
        elif name.startswith("bench/results/") is False and os.path.exists(os.path.join("bench/results", name)):
            passed += 1
        else:
            check(False, "%s: names `%s`, which is not in the repository" % (page, name))
    for stale in ("NOTES.md", "seeds/", "formats/cuda/all.cuh"):
        check(stale not in text, "%s: refers to %s, which is not in the repository" % (page, stale))

# 4. one source for the entry page's figures
perf = open("docs/PERFORMANCE.md").read()
prose = re.sub(r"^```.*?^```", "", readme, flags=re.M | re.S)
for fig in dict.fromkeys(re.findall(r"\b\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?x\b", prose)):
    check(fig in perf, "README quotes %s, which docs/PERFORMANCE.md does not state" % fig)

# 3. code blocks
os.makedirs("build/readme", exist_ok=True)
have_nvcc = subprocess.run("command -v nvcc", shell=True, capture_output=True).returncode == 0
for i, (lang, code) in enumerate(re.findall(r"^```(\w+)\n(.*?)^```", readme, re.M | re.S)):
    if lang not in ("c", "cuda"):
        continue
    src = "build/readme/block%d.%s" % (i, "c" if lang == "c" else "cu")
    exe = "build/readme/block%d" % i
    open(src, "w").write(code)
    mpi = lang == "c" and "#include <mpi.h>" in code  # the distributed layer: mpicc, run on 2 ranks
    if mpi and subprocess.run("command -v mpicc && command -v mpirun", shell=True, capture_output=True).returncode:
        print("SKIP: Open MPI not found: README block %d (MPI) not compiled" % i)
        skipped += 1
        continue
    if lang == "c":
        cmd = [("mpicc" if mpi else "gcc"), "-std=gnu11", "-O0", "-Wall", "-Wextra", "-Werror", "-fopenmp", "-I.", src,
               "-o", exe, "-lm"]
    else:
        cmd = ["g++", "-std=c++17", "-O0", "-Wall", "-Wno-unknown-pragmas", "-I.", "-DSPMV_CUDA_EMULATE", "-include",
               "tests/emu/cuda_emu.h", "-fopenmp", "-x", "c++", src, "-x", "none", "-o", exe, "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    check(r.returncode == 0, "README block %d (%s) does not compile: %s" % (i, lang, r.stderr[-800:]))
    if r.returncode:
        continue
    if "int main" in code:
        run = ["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", "2", exe] if mpi else [exe]
        r = subprocess.run(run, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1" if mpi else "2",
                           OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1"), timeout=120)
        check(r.returncode == 0, "README block %d (%s) exits %d: %s" % (i, lang, r.returncode, (r.stdout + r.stderr)[-400:]))
        print("README block %d (%s): %s" % (i, lang, r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""))
    if lang == "cuda":
        if os.environ.get("SPMV_TEST_FULL", "0") != "1":  # the short suite: the emulation's build and run above
            skipped += 1
            print("SKIP: README block %d not compiled by nvcc (tests/run.sh --full)" % i)
        elif have_nvcc:
            r = subprocess.run(["nvcc", "-std=c++17", "-O0", "-I.", "-gencode", "arch=compute_90,code=sm_90", src, "-o",
                                exe + "_nvcc"], capture_output=True, text=True)
            check(r.returncode == 0, "README block %d does not compile with nvcc: %s" % (i, r.stderr[-800:]))
        else:
            skipped += 1
            print("SKIP: nvcc not found: README block %d not compiled by nvcc" % i)
print("RESULT readme_check passed=%d failed=%d skipped=%d" % (passed, failed, skipped))
