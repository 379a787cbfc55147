#!/bin/sh
# Runs the Matrix Market conformance cases of scipy's and fast_matrix_market's test suites
# (../shared/mm_conformance, see its README.md) against the spmv tool and turns the runner's
# verdict into the suite's RESULT line: each agreeing case passes, each disagreement fails
# (deliberate differences would be listed in DELIBERATE below, with the reason in README.md;
# there are none). A missing ../shared/mm_conformance (or python3) is one skip with a notice.
#   sh tests/mm_conformance.sh [PATH/TO/spmv]     (SPMV_CONFORMANCE=DIR overrides the folder)
bin=${1:-build/spmv}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
dir=${SPMV_CONFORMANCE:-$(cd "$(dirname "$0")/.." && pwd)/../shared/mm_conformance}
DELIBERATE=""
if [ ! -f "$dir/run.py" ] || [ ! -f "$dir/expected.tsv" ]; then
    echo "SKIP: mm_conformance: $dir not found: conformance cases not run"
    echo "RESULT mm_conformance passed=0 failed=0 skipped=1"; exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: mm_conformance: no python3"; echo "RESULT mm_conformance passed=0 failed=0 skipped=1"; exit 0
fi
log=$(mktemp /tmp/spmv_conformance.XXXXXX) || exit 1
scratch=$(mktemp -d /tmp/spmv_conformance.XXXXXX) || exit 1   # the runner's temporary folder
TMPDIR=$scratch python3 "$dir/run.py" "$bin" "$dir" > "$log" 2>&1
rc=$?
rm -rf "$scratch"
tail -2 "$log"
last=$(tail -1 "$log")
agree=$(echo "$last" | sed -n 's/^\([0-9]*\) agree, \([0-9]*\) disagree$/\1/p')
dis=$(echo "$last" | sed -n 's/^\([0-9]*\) agree, \([0-9]*\) disagree$/\2/p')
if [ "$rc" != 0 ] || [ -z "$agree" ]; then
    echo "FAIL: mm_conformance: the runner did not finish (exit $rc):"; tail -5 "$log"; rm -f "$log"
    echo "RESULT mm_conformance passed=0 failed=1 skipped=0"; exit 1
fi
failed=0
for c in library-rejects-valid library-rejects-permissive library-accepts-invalid wrong-values crash/hang library-accepts-out-of-scope; do
    grep "^$c	" "$log" | while IFS='	' read -r cls file exp det; do
        case " $DELIBERATE " in *" $file "*) echo "deliberate difference: $file ($cls)";; *) echo "FAIL: conformance: $cls $file ($exp): $det";; esac
    done
done
nd=0
for f in $DELIBERATE; do grep -q "	$f	" "$log" && ! grep -q "^agree	$f	" "$log" && nd=$((nd + 1)); done
failed=$((dis - nd))
rm -f "$log"
echo "RESULT mm_conformance passed=$agree failed=$failed skipped=0"
[ "$failed" = 0 ]
