#!/bin/sh
# run_one.sh LOG PROGRAM [VAR=VALUE ...] [-- ARG ...]: one test program, as a ninja edge
# (build.ninja's runtest rules): runs PROGRAM ARG... with the variables set, writes its output
# and a last line "EXIT <status> <seconds>" to LOG, and always succeeds, so that ninja runs
# every test and tests/run.sh adds up the logs.
log=$1; prog=$2; shift 2
vars=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do vars="$vars $1"; shift; done
[ "${1:-}" = "--" ] && shift
start=$(date +%s)
# $vars: VAR=VALUE words without spaces (build.ninja's env lists); no calibration file is read
# or written (the user's cache stays untouched; test_calib sets its own)
env OMP_WAIT_POLICY=passive SPMV_CALIBRATION=off $vars "$prog" "$@" > "$log.tmp" 2>&1
rc=$?
echo "EXIT $rc $(( $(date +%s) - start ))" >> "$log.tmp"
mv "$log.tmp" "$log"
exit 0
