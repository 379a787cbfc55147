#!/bin/sh
# run_one.sh LOG PROGRAM [VAR=VALUE ...]: one test program, as a ninja edge (build.ninja's
# runtest rule): runs PROGRAM with the variables set, writes its output and a last line
# "EXIT <status> <seconds>" to LOG, and always succeeds, so that ninja runs every test and
# tests/run.sh adds up the logs.
log=$1; prog=$2; shift 2
start=$(date +%s)
env OMP_WAIT_POLICY=passive "$@" "$prog" > "$log.tmp" 2>&1
rc=$?
echo "EXIT $rc $(( $(date +%s) - start ))" >> "$log.tmp"
mv "$log.tmp" "$log"
exit 0
