#!/bin/sh
# Mutation check: each mutant below is applied alone to a scratch clone, its test program is
# rebuilt and run, and it must fail (a failed check, a sanitizer report or a crash). Prints a
# table of caught / survived with times. Not part of the test command (about 15 minutes on 2
# cores); run it before a release and after a kernel rewrite: a surviving mutant is a missing
# test. usage: sh tests/mutants.sh [SCRATCH_DIR] (default /tmp/spmv-mutants)
# A mutant: NAME | FILE | SED EXPRESSION | NINJA TARGET | COMMAND (run in the clone; the
# environment SPMV_MATRICES is passed on). The sed expression must change the file.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/tmp/spmv-mutants}
export SPMV_MATRICES="${SPMV_MATRICES:-$repo/../shared/matrices}"
Q="SPMV_TEST_QUICK=1 SPMV_TEST_MAX_NNZ=600 SPMV_TEST_TAGS=s,d"
N="OMP_NUM_THREADS=2 SPMV_TEST_GENERIC_MAX_NNZ=20000 SPMV_TEST_AVX2_MAX_NNZ=20000 SPMV_TEST_MAX_NNZ=50000"
mutants() {
cat <<LIST
coo split b+nnz/nth|formats/coo.h|s/e = (SPMV_I)((int64_t)A->nnz \* (tid + 1) \/ nth);/e = tid == nth - 1 ? A->nnz : (SPMV_I)((int64_t)b + A->nnz \/ nth);/|build/tests/test_format_coo|env OMP_NUM_THREADS=3 SPMV_TEST_MAX_NNZ=20000 build/tests/test_format_coo
coo alpha dropped on a carry|formats/coo.h|s/y\[r\] += alpha \* sum;/y[r] += sum;/|build/tests/test_format_coo|env $N build/tests/test_format_coo
csr beta ignored, serial path|formats/csr.h|0,/0, A->nrows, alpha, beta, A->rows_kind/s//0, A->nrows, alpha, (SPMV_T)0, A->rows_kind/|build/tests/test_csr|env OMP_NUM_THREADS=2 build/tests/test_csr
jad converter: rows unpermuted|formats/ell.h|s/const SPMV_I r = A->perm ? A->perm\[i\] : i;/const SPMV_I r = i;/|build/tests/test_format_ell|env $N build/tests/test_format_ell
sell converter: sort breaks the permutation|formats/ell.h|s/for (r = w0; r < w1; r++) perm\[cnt\[hi - (rp\[r + 1\] - rp\[r\])\]++\] = r;/for (r = w0; r < w1; r++) perm[cnt[hi - (rp[r + 1] - rp[r])]++] = w0;/|build/tests/test_format_ell|env $N build/tests/test_format_ell
dia to CSR: offset dropped|formats/dia.h|s/B->col_idx\[q\] = (SPMV_I)(r0 + i + A->off\[d\]);/B->col_idx[q] = (SPMV_I)(r0 + i);/|build/tests/test_format_dia|env $N build/tests/test_format_dia
dia diagonal offset dropped|formats/dia.h|s/\*px = x + (r0 + o);/*px = x + r0;/|build/tests/test_format_dia|env $N build/tests/test_format_dia
bcsr x column dropped|formats/bcsr.h|s/s\[r\] += A->val\[b \* b2 + p\] \* x\[xb + c\];/s[r] += A->val[b * b2 + p] * x[xb];/|build/tests/test_format_bcsr|env $N build/tests/test_format_bcsr
csr5 calibrator without alpha|formats/csr5.h|s/\*cal_val = alpha \* carry;/*cal_val = carry;/|build/tests/test_format_csr5|env $N build/tests/test_format_csr5
axt second accumulator lost|formats/axt.h|s/    return V_add(acc, a1);/    return acc;/|build/tests/test_format_axt|env $N build/tests/test_format_axt
reader doubles a symmetric diagonal|formats/io/mm.h|s/if (h.sym != SPMV__MM_GENERAL \&\& i != j) {/if (h.sym != SPMV__MM_GENERAL) {/|build/tests/test_mm|env OMP_NUM_THREADS=2 build/tests/test_mm
auto squares alpha|formats/auto.h|s/any_mv)(\&M->h, alpha, x, beta, y)/any_mv)(\&M->h, alpha * alpha, x, beta, y)/|build/tests/test_auto|env OMP_NUM_THREADS=2 build/tests/test_auto
cuda: warp segmented sum without atomic|formats/cuda/core.cuh|s/atomicAdd(y + key, alpha \* v);/y[key] += alpha * v;/|build/tests-cutsan/test_cuda_formats|env SPMV_TEST_QUICK=1 SPMV_TEST_MAX_NNZ=300 SPMV_TEST_TAGS=d SPMV_TEST_FORMATS=coo,hyb build/tests-cutsan/test_cuda_formats
cuda: csr merge carries without alpha|formats/cuda/csr.cuh|s/atomicAdd(y + carry_row\[t\], alpha \* carry_val\[t\])/atomicAdd(y + carry_row[t], carry_val[t])/|build/tests-cuemu/test_cuda_formats|env $Q SPMV_TEST_FORMATS=csr,csr_merge build/tests-cuemu/test_cuda_formats
cuda: ELLR-T without its lane sum|formats/cuda/ell.cuh|s/        sum = spmv_cuda_warp_sum<TPR>(sum);//|build/tests-cuemu/test_cuda_formats|env $Q SPMV_TEST_FORMATS=ellr,sell build/tests-cuemu/test_cuda_formats
cuda: dia offset dropped|formats/cuda/dia.cuh|s/sum += \*pv \* x\[r + (int64_t)off\[d\]\];/sum += *pv * x[r];/|build/tests-cuemu/test_cuda_formats|env $Q SPMV_TEST_FORMATS=dia,hdia build/tests-cuemu/test_cuda_formats
cuda: bcsr block rows ignore beta|formats/cuda/bcsr.cuh|s/spmv_cuda_axpby(y + rb + lane, alpha, v, beta);/spmv_cuda_axpby(y + rb + lane, alpha, v, (T)0);/|build/tests-cuemu/test_cuda_formats|env $Q SPMV_TEST_FORMATS=bcsr build/tests-cuemu/test_cuda_formats
cuda: csr5 calibrator without alpha|formats/cuda/csr5.cuh|s/if (rb < k0) atomicAdd(y + r, alpha \* s);/if (rb < k0) atomicAdd(y + r, s);/|build/tests-cuemu/test_cuda_formats|env $Q SPMV_TEST_FORMATS=csr5 build/tests-cuemu/test_cuda_formats
cuda: axc doubles its row sums|formats/cuda/axt.cuh|s/if (lane == 0) spmv_cuda_axpby(y + r, alpha, acc, beta);/if (lane == 0) spmv_cuda_axpby(y + r, alpha, acc + acc, beta);/|build/tests-cuemu/test_cuda_formats|env $Q SPMV_TEST_FORMATS=axc build/tests-cuemu/test_cuda_formats
cuda: suraa writes unpermuted rows|formats/cuda/suraa.cuh|0,/spmv_cuda_axpby(y + perm\[r\], alpha, s, beta)/s//spmv_cuda_axpby(y + r, alpha, s, beta)/|build/tests-cuemu/test_cuda_suraa|env OMP_NUM_THREADS=2 build/tests-cuemu/test_cuda_suraa
LIST
}
rm -rf "$dir"
git clone -q "$repo" "$dir" || exit 1
cd "$dir" || exit 1
# uncommitted changes of the working tree come along (a mutant run checks what is on disk)
(cd "$repo" && git diff HEAD) | git apply --allow-empty 2>/dev/null
targets=$(mutants | cut -d'|' -f4 | sort -u | tr '\n' ' ')
echo "building the baseline: $targets"
# shellcheck disable=SC2086
ninja $targets > build-baseline.log 2>&1 || { echo "FAIL: the baseline does not build (see $dir/build-baseline.log)"; exit 1; }
caught=0; survived=0
printf '| mutant | test | result | seconds |\n|---|---|---|---|\n' > mutants.md
mutants | while IFS='|' read -r name file expr target cmd; do
    t0=$(date +%s)
    cp "$file" "$file.orig"
    sed -i -e "$expr" "$file"
    if cmp -s "$file" "$file.orig"; then
        res="NOT APPLIED (the pattern no longer matches)"
    elif ! ninja "$target" > build.log 2>&1; then
        res="caught (does not build)"
    else
        # shellcheck disable=SC2086
        timeout -k 10 600 sh -c "$cmd" > run.log 2>&1; rc=$?
        f=$(grep '^RESULT' run.log | tail -1 | sed -n 's/.*failed=\([0-9]*\).*/\1/p')
        if [ "$rc" != 0 ] || [ "${f:-0}" != 0 ]; then res="caught (${f:-?} failed checks, exit $rc)"; else res="SURVIVED"; fi
    fi
    mv "$file.orig" "$file"
    touch "$file"
    printf '| %s | %s | %s | %s |\n' "$name" "$(basename "$target")" "$res" "$(( $(date +%s) - t0 ))" | tee -a mutants.md
done
ninja $targets > /dev/null 2>&1 # back to the baseline
echo
cat mutants.md
n=$(grep -c '^| ' mutants.md); c=$(grep -c '| caught' mutants.md)
echo "mutants: $((n - 1)), caught: $c"
[ "$c" = "$((n - 1))" ]
