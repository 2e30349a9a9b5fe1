#!/bin/sh
# Golden records: each tests/golden/NAME.txt replays to exactly NAME.json
# (barbu replay --json); each tests/golden/bad/NAME.txt is refused with
# exactly the message in NAME.err and exit status 1.
#
# usage: run.sh BARBU GOLDEN_DIR     (set UPDATE=1 to rewrite the expected files)
set -u
barbu=$1
cd "$2" || exit 1
fail=0
for rec in *.txt; do
    want=${rec%.txt}.json
    got=$("$barbu" replay --json "$rec" 2>&1)
    status=$?
    if [ "${UPDATE:-0}" = 1 ]; then printf '%s\n' "$got" > "$want"; continue; fi
    if [ $status -ne 0 ] || [ "$got" != "$(cat "$want")" ]; then
        echo "FAIL $rec (exit $status)"; printf 'got:  %s\nwant: %s\n' "$got" "$(cat "$want")"
        fail=1
    else
        echo "ok   $rec"
    fi
done
for rec in bad/*.txt; do
    want=${rec%.txt}.err
    got=$("$barbu" replay "$rec" 2>&1 >/dev/null)
    status=$?
    if [ "${UPDATE:-0}" = 1 ]; then printf '%s\n' "$got" > "$want"; continue; fi
    if [ $status -ne 1 ] || [ "$got" != "$(cat "$want")" ]; then
        echo "FAIL $rec (exit $status)"; printf 'got:  %s\nwant: %s\n' "$got" "$(cat "$want")"
        fail=1
    else
        echo "ok   $rec"
    fi
done
exit $fail
