#!/usr/bin/env bash
# The whole suite, as `make test` runs it: the pure rules tests (tests/rules: no database, no
# Redis, no browser, no port; tests/rules/test_purity.py keeps them so) in a second pytest
# process beside the rest. The rest spends much of its time waiting on browsers, workers and
# clocks, with a core idle; the rules' random playouts fill it. Both runs must pass.
# Usage: tests/run_suite.sh PYTHON [pytest arguments for the rest]
set -u
py=$1
shift
log=$(mktemp)
trap 'rm -f "$log"; kill "$rules" 2>/dev/null' EXIT
"$py" -m pytest tests/rules -q > "$log" 2>&1 &
rules=$!
"$py" -m pytest --ignore=tests/rules "$@"
rest=$?
wait "$rules"
rules_status=$?
echo "== tests/rules (run beside the rest):"
cat "$log"
if [ "$rest" -ne 0 ] || [ "$rules_status" -ne 0 ]; then
    echo "FAILED: the rest exited with $rest, tests/rules with $rules_status" >&2
    exit 1
fi
