#!/bin/sh
# The CUDA emulator's concurrent mode under ThreadSanitizer finds a race between blocks and only
# that: build/tests-cutsan/test_emu_race (tests/emu/test_emu_race.cu). `racy` must be reported
# (exit status 66 and "data race"), `atomic` must run clean and sum exactly.
bin=${1:-build/tests-cutsan/test_emu_race}
p=0; f=0
"$bin" racy > /tmp/spmv_race.$$.out 2>&1; rc=$?
if [ $rc = 66 ] && grep -q 'ThreadSanitizer: data race' /tmp/spmv_race.$$.out; then p=$((p + 1)); echo "ok: y[0] += 1 from every thread of 16 blocks is reported"
else f=$((f + 1)); echo "FAIL: the racy kernel was not reported (exit $rc)"; tail -5 /tmp/spmv_race.$$.out; fi
"$bin" atomic > /tmp/spmv_race.$$.out 2>&1; rc=$?
if [ $rc = 0 ] && ! grep -q 'data race' /tmp/spmv_race.$$.out && grep -q '^atomic: y = 1024, n = 1024' /tmp/spmv_race.$$.out; then
    p=$((p + 1)); echo "ok: the same with atomicAdd is clean and exact"
else f=$((f + 1)); echo "FAIL: the atomic kernel (exit $rc)"; tail -5 /tmp/spmv_race.$$.out; fi
rm -f /tmp/spmv_race.$$.out
echo "RESULT race_check passed=$p failed=$f skipped=0"
