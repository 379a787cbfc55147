#!/bin/sh
# The source layout's rules, checked (docs/DESIGN.md, "Where things live"):
#  1. what a format knows lives with the format: no format name as a string literal in the
#     selection and the run-time handle (formats/auto.h, formats/auto_plan.h, formats/any.h and
#     their device twins formats/cuda/auto.cuh, formats/cuda/any.cuh);
#  2. every registry row has its rules (spmv_rules_<name>) in its family's header;
#  3. no include cycle among the library's headers (spmv.h, spmv_cuda.cuh, formats/);
#  4. no function in formats/ longer than 80 lines but those listed, with the reason, in
#     tests/long_functions.txt (and nothing listed there that is no longer long).
# Ends with one RESULT line.
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
reg=$(sed '/TEST-ONLY ROWS/q' formats/registry.h) # the product's rows
names=$(echo "$reg" | sed -n 's/^SPMV_FORMAT(\([a-z0-9_]*\),.*/\1/p')
[ -n "$names" ] || bad "no registry rows read from formats/registry.h"
for f in formats/auto.h formats/auto_plan.h formats/any.h formats/cuda/auto.cuh formats/cuda/any.cuh; do
    [ -f "$f" ] || continue
    hit=""
    for n in $names; do
        grep -n "\"$n\"" "$f" > /dev/null && hit="$hit $n"
    done
    if [ -z "$hit" ]; then ok; else bad "$f names formats as strings:$hit"; fi
done
for n in $names; do
    fam=$(echo "$reg" | sed -n "s/^SPMV_FORMAT($n, *[A-Z0-9_]*, *\([a-z0-9_]*\),.*/\1/p")
    if grep -q "spmv_format_rules spmv_rules_$n\b" "formats/$fam.h"; then ok; else bad "row $n: no spmv_rules_$n in formats/$fam.h"; fi
done
python3 - <<'PY' && ok || bad "include cycle (above)"
import glob, os, re, sys
files = glob.glob('formats/**/*.h', recursive=True) + glob.glob('formats/**/*.cuh', recursive=True) + ['spmv.h', 'spmv_cuda.cuh']
graph = {}
for f in files:
    deps = set()
    for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', open(f).read(), re.M):
        p = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
        if not os.path.exists(p): p = os.path.normpath(m.group(1))
        if os.path.exists(p) and p != f: deps.add(p)
    graph[os.path.normpath(f)] = deps
# instance.h includes the registry and the format headers once per part: that is its job, not
# a cycle; the registry includes the family headers through a macro (not seen here)
state, stack = {}, []
def visit(n):
    state[n] = 1; stack.append(n)
    for d in sorted(graph.get(n, ())):
        if state.get(d) == 1:
            print('cycle: ' + ' -> '.join(stack[stack.index(d):] + [d])); sys.exit(1)
        if d not in state: visit(d)
    state[n] = 2; stack.pop()
for n in sorted(graph):
    if n not in state: visit(n)
PY
python3 tests/func_lengths.py 80 > build/logs/func_lengths.txt 2>&1 || bad "tests/func_lengths.py failed"
while read -r lines where name; do
    if grep -q "^$name " tests/long_functions.txt; then ok; else bad "$where: $name is $lines lines (over 80): split it or say why in tests/long_functions.txt"; fi
done < build/logs/func_lengths.txt
for name in $(sed -n 's/^\([A-Za-z0-9_]*\) .*/\1/p' tests/long_functions.txt); do
    if grep -q " $name\$" build/logs/func_lengths.txt; then ok; else bad "tests/long_functions.txt lists $name, no longer over 80 lines"; fi
done
echo "RESULT layout_check passed=$pass failed=$fail skipped=0"
[ $fail = 0 ]
