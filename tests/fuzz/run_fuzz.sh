#!/bin/sh
# Builds a fuzz target with clang's libFuzzer: the Matrix Market reader (tests/fuzz/fuzz_mm.c,
# the default) or, with SPMV_FUZZ_TARGET=csr, the CSR wrap, every host converter and the
# parameter strings (tests/fuzz/fuzz_csr.c). For the reader: built
# ASan and UBSan, writes its seed corpus (small valid and invalid files, plain and gzip) and a
# dictionary, and runs it for a fixed budget. Any crash, sanitizer report, leak or failed
# invariant fails it (the input is kept as build/fuzz/crash-*).
#   sh tests/fuzz/run_fuzz.sh [SECONDS] [extra libFuzzer options...]      (default 40 s)
# Prints the figures (executions, coverage) and "RESULT fuzz_mm passed=N failed=N skipped=N".
# Installs clang (Debian package) when it is missing. The long run is the same command with
# a larger budget and optimisation, e.g.
#   SPMV_FUZZ_OPT=-O1 nice -n 19 sh tests/fuzz/run_fuzz.sh 7200 -runs=3000000   (see README)
secs=${1:-40}
t=${SPMV_FUZZ_TARGET:-mm}
case $t in mm|csr) ;; *) echo "run_fuzz.sh: SPMV_FUZZ_TARGET must be mm or csr"; exit 2 ;; esac
[ $# -gt 0 ] && shift
cd "$(dirname "$0")/../.." || exit 1
out=build/fuzz
corpus=$out/corpus; [ $t = mm ] || corpus=$out/corpus_$t
mkdir -p "$out/seeds" "$corpus"
result() { echo "RESULT fuzz_$t passed=$1 failed=$2 skipped=$3"; [ "$2" = 0 ]; exit $?; }

cc=""
for c in clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
    if command -v $c >/dev/null 2>&1; then cc=$c; break; fi
done
if [ -z "$cc" ]; then
    echo "installing: clang"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang >/dev/null 2>&1
    command -v clang >/dev/null 2>&1 && cc=clang
fi
if [ -z "$cc" ]; then
    echo "FAIL: fuzz_$t: no clang and it could not be installed (apt-get install clang)"; result 0 1 0
fi
# -O0 by default: it compiles in ~10 s instead of ~65 s (every format's kernels for every ISA)
# and runs about half as many inputs per second; the long run uses SPMV_FUZZ_OPT=-O1
opt=${SPMV_FUZZ_OPT:--O0}
# (UBSan's pointer-overflow check left out, as in build.ninja's sanitizer builds: a third of the compile)
flags="-std=c11 -g $opt -fsanitize=fuzzer,address,undefined -fno-sanitize=pointer-overflow -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
build() {
    $cc $flags -D_GNU_SOURCE -DSPMV_HAVE_ZLIB -I. tests/fuzz/fuzz_$t.c -o "$out/fuzz_$t" -lz -lm > "$out/build_$t.log" 2>&1 &&
        echo "$cc $flags" > "$out/fuzz_$t.flags"
}
t0=$(date +%s)
if [ ! -x "$out/fuzz_$t" ] || [ "$(cat "$out/fuzz_$t.flags" 2>/dev/null)" != "$cc $flags" ] ||
   [ -n "$(find tests/fuzz/fuzz_$t.c spmv.h formats -newer "$out/fuzz_$t" -name '*.[ch]' 2>/dev/null | head -1)" ]; then
    if ! build; then
        # the libFuzzer runtime is a separate package on some releases
        v=$($cc --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
        SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "libclang-rt-$v-dev" >/dev/null 2>&1
        if ! build; then
            echo "FAIL: fuzz_$t: cannot build with $cc (build/fuzz/build_$t.log):"; tail -5 "$out/build_$t.log"; result 0 1 0
        fi
    fi
fi
echo "fuzz_$t: built with $cc $opt in $(( $(date +%s) - t0 )) s"
if [ $t = csr ]; then # a few seeds: a valid 3x3 (repaired bit set), raw arrays, a parameter string
    s=$out/seeds_csr; mkdir -p $s
    printf '\003\003\001\100\007\000\000\000\002\000\005\000\007\000\000\000\001\000\000\000\001\000\002\000\001\000\002\000\010\370\370\020\370\370\010' > $s/valid3.bin
    printf '\005\004\012\003\004\000\000\000\002\000\001\000\004\000\004\000\003\000\000\000\001\000\002\000\003\000\177\200\001\002w=8' > $s/raw.bin
    printf '\010\010\003\101\040\000\001\002\003\004\005\006\007\010\011\012isa=generic' > $s/params.bin
    d=/dev/null
else
s=$out/seeds

# ---- seed corpus (written here, never copied from elsewhere) ----
printf '%%%%MatrixMarket matrix coordinate real general\n%% comment\n3 4 5\n1 1 1.5\n2 3 -2e-3\n3 4 7\n3 4 1\n1 2 .25\n' > $s/real.mtx
printf '%%%%MatrixMarket matrix coordinate integer symmetric\n4 4 4\n1 1 9007199254740993\n2 1 -7\n4 3 123\n4 4 -9223372036854775808\n' > $s/int_sym.mtx
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 3\n3 1\n2 2\n' > $s/pattern.mtx
printf '%%%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 3\n2 1 4\n3 3 1\n3 1 -0.5\n' > $s/skew.mtx
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n5 5 4\n1 1\n5 1\n3 2\n5 5\n' > $s/psym.mtx
printf '%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 nan\n2 2 -inf\n' > $s/onepct_naninf.mtx
printf '%%%%MatrixMarket matrix coordinate real general\r\n2 3 3\r\n1 1 0x1.8p1\r\n2 3 1e-310\r\n1 3 1.7976931348623157e308\r\n' > $s/crlf_hex.mtx
printf '%%%%MatrixMarket matrix coordinate real general\n1099511627776 1099511627776 2\n1 1 1\n1099511627776 5 2\n' > $s/dim40.mtx
printf '%%%%MatrixMarket matrix coordinate real general\n0 0 0\n' > $s/empty.mtx
printf '%%%%MatrixMarket matrix array real general\n3 1\n1.5\n-0\n2.5e-300\n' > $s/vec.mtx
printf '%%%%MatrixMarket matrix array integer general\n1 2\n7\n-8\n' > $s/vec_int.mtx
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\0 2 2 2\n' > $s/bad_nul.mtx
printf '%%%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n' > $s/bad_int.mtx
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 4000000000000000000\n1 1 1\n' > $s/bad_count.mtx
printf '%%%%MatrixMarket matrix coordinate complex hermitian\n1 1 1\n1 1 1 0\n' > $s/bad_complex.mtx
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n' > $s/bad_index.mtx
printf '%%%%MatrixMarket vector coordinate real general\n3 1\n1 1\n' > $s/bad_object.mtx
{ printf '%%%%MatrixMarket matrix coordinate real general\n%%'; head -c 700 /dev/zero | tr '\0' x; printf '\n2 2 1\n2 2 3\n'; } > $s/longcomment.mtx
{ printf '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 '; head -c 400 /dev/zero | tr '\0' 1; printf '\n'; } > $s/bad_longline.mtx
{ printf '%%%%MatrixMarket matrix coordinate real general\n12 10 30\n'; i=1; while [ $i -le 30 ]; do printf '%d %d %d.%d\n' $(( (i * 7) % 12 + 1 )) $(( (i * 3) % 10 + 1 )) $i $(( i * 13 % 10 )); i=$((i + 1)); done; } > $s/rect.mtx
if command -v gzip >/dev/null 2>&1; then
    gzip -n -c $s/real.mtx > $s/real.mtx.gz
    gzip -n -c $s/vec.mtx > $s/vec.gz
    head -c 40 $s/real.mtx.gz > $s/trunc.gz
    gzip -n -c $s/rect.mtx > $s/rect.gz
fi
d=$out/mm.dict
printf '"%%%%MatrixMarket"\n"matrix"\n"coordinate"\n"array"\n"real"\n"integer"\n"pattern"\n"complex"\n"general"\n"symmetric"\n"skew-symmetric"\n"hermitian"\n"nan"\n"inf"\n"e-"\n"e+"\n"0x"\n"p-"\n"\\x0a"\n"\\x0d\\x0a"\n"\\x00"\n"9223372036854775807"\n"9223372036854775808"\n"9007199254740993"\n"1099511627776"\n"2147483648"\n"\\x1f\\x8b"\n' > $d
fi

# ---- run ----
echo "fuzz_$t: $secs s (corpus $corpus, seeds $s)"
t0=$(date +%s)
tmp=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && tmp=/dev/shm   # the target's two scratch files
TMPDIR=$tmp ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:malloc_context_size=8 UBSAN_OPTIONS=print_stacktrace=1 \
    "$out/fuzz_$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2560 -malloc_limit_mb=2048 -max_len=4096 \
    $( [ "$d" = /dev/null ] || echo "-dict=$d" ) -artifact_prefix="$out/" -print_final_stats=1 "$@" "$corpus" "$s" > "$out/fuzz_$t.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz_$t.log" | tail -1)
cov=$(grep -E '^#[0-9]+' "$out/fuzz_$t.log" | tail -1 | sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, features \2/p')
echo "fuzz_$t: exit $rc after $(( $(date +%s) - t0 )) s: ${runs:-?} executions, ${cov:-coverage ?}, corpus $(ls "$corpus" | wc -l) inputs"
if [ "$rc" != 0 ]; then
    echo "FAIL: fuzz_$t found a problem (exit $rc); the input is under $out/; the report:"
    grep -E 'ERROR|SUMMARY|invariant|runtime error|crash-|leak-|timeout-|oom-' "$out/fuzz_$t.log" | head -20
    result 0 1 0
fi
result 1 0 0
