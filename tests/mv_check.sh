#!/bin/sh
# `spmv mv` against the pure-Python product of tests/mv_check.py on the real matrices
# ($SPMV_MATRICES, up to SPMV_MVCHECK_MAX_NNZ nonzeros, default 150000); one skip when the
# matrices or python3 are missing. usage: tests/mv_check.sh [PATH/TO/spmv] (default build/spmv)
bin=${1:-build/spmv}
m=${SPMV_MATRICES:-../shared/matrices}
if [ -f "$m/INDEX.tsv" ] && command -v python3 >/dev/null 2>&1; then
    exec python3 tests/mv_check.py "$bin" "$m" "${SPMV_MVCHECK_MAX_NNZ:-150000}"
fi
echo "SKIP: mv_check: no $m/INDEX.tsv or no python3"
echo "RESULT mv_check passed=0 failed=0 skipped=1"
