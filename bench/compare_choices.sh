#!/bin/sh
# The automatic selection's decisions of two builds of the tool, side by side: for every real
# matrix (../shared/matrices) and the small presets, in double and float, `spmv plan
# --deterministic` (the rules alone, untimed: the same on every run), for y = Ax, for SpMM
# (--op mm:k=8) and with x fixed (--x-fixed: the formats embedding x admitted), gives the shortlist with
# each format's predicted speedup and rule, the formats left out and why, and the choice; the
# two builds must print the same lines. With --trials, the trial-mode choice of each is printed
# side by side too (timed: differences are expected noise near ties and are listed, not failed).
# usage: bench/compare_choices.sh OLD_SPMV NEW_SPMV [--trials] [MATRIX...]
# Prints one line per difference and "compare_choices: N inputs, N differ"; exit 1 when any differ.
old=$1; new=$2; shift 2
trials=0
[ "$1" = --trials ] && { trials=1; shift; }
dir=$(cd "$(dirname "$0")/.." && pwd)/../shared/matrices
if [ $# -eq 0 ]; then
    set -- gen:stencil3d:n=40,pts=27 gen:fem:n=20000,bs=3 gen:rmat:scale=16,ef=16 gen:circuit:n=100000 \
        gen:band:n=200000,bw=3 $(ls "$dir"/*.mtx.gz 2>/dev/null)
fi
T=$(mktemp -d /tmp/spmv_compare.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
n=0; nd=0
decisions() { # BIN PREC MATRIX: the plan's decision lines, timings dropped
    for op in "--op mv" "--op mm:k=8" "--x-fixed"; do
        echo "[$op]"
        SPMV_CALIBRATION=off "$1" plan --deterministic $op --precision "$2" "$3" 2>&1 |
            grep -E '^(  [ *] [a-z]|left out|choice|spmv plan:)' | sed 's/  *not timed$//'
    done
}
for m in "$@"; do
    for p in d s; do
        n=$((n + 1))
        decisions "$old" $p "$m" > "$T/a"; decisions "$new" $p "$m" > "$T/b"
        if ! cmp -s "$T/a" "$T/b"; then
            nd=$((nd + 1)); echo "DIFF $(basename "$m") ($p):"; diff "$T/a" "$T/b" | sed 's/^/    /' | head -20
        fi
        if [ $trials = 1 ]; then
            a=$(SPMV_CALIBRATION=off "$old" plan --precision $p "$m" 2>&1 | sed -n 's/^choice  *\([a-z0-9_]*\):.*/\1/p')
            b=$(SPMV_CALIBRATION=off "$new" plan --precision $p "$m" 2>&1 | sed -n 's/^choice  *\([a-z0-9_]*\):.*/\1/p')
            [ "$a" = "$b" ] || echo "TRIALS $(basename "$m") ($p): $a -> $b"
        fi
    done
done
echo "compare_choices: $n inputs, $nd differ"
[ $nd = 0 ]
