#!/bin/sh
# tests/readme_check.py (the README's format table, links, file names and code blocks)
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not found: the README check not run"; echo "RESULT readme_check passed=0 failed=0 skipped=1"; exit 0
fi
exec python3 "$(dirname "$0")/readme_check.py"
