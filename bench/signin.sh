#!/bin/sh
# What a burst of 1,000 sign-ins costs the other tables (bench/signin.c):
# the round trip of a request on the event loop (p50, p99) before and
# during the burst, and the sign-ins answered per second.  Runs it RUNS
# times (default 3) and prints each run and the medians.
#
# usage: bench/signin.sh [BUILD_DIR] [--runs N] [bench_signin options]
#   BUILD_DIR  a Release build (default build)
#   options    --tables N (8), --attempts N (1000), --conns N (50),
#              --quiet-s S (10)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=build
case "${1:-}" in
    -*|"") ;;
    *) build=$1; shift ;;
esac
case "$build" in /*) ;; *) build="$here/$build" ;; esac
runs=3
if [ "${1:-}" = "--runs" ]; then
    runs=${2:?--runs wants a number}
    shift 2
fi
[ -x "$build/bench_signin" ] || cmake --build "$build" --target bench_signin barbu
out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=1
while [ "$i" -le "$runs" ]; do
    echo "== run $i"
    "$build/bench_signin" "$build/barbu" "$@" | grep -v '^ok ' | tee -a "$out"
    i=$((i + 1))
done
median() {
    sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
b99=$(grep '^before the burst' "$out" | sed 's/.*p99 *\([0-9.]*\) ms.*/\1/' | median)
d50=$(grep '^during the burst' "$out" | sed 's/.*p50 *\([0-9.]*\) ms.*/\1/' | median)
d99=$(grep '^during the burst' "$out" | sed 's/.*p99 *\([0-9.]*\) ms.*/\1/' | median)
rate=$(grep '^sign-ins' "$out" | sed 's/.*: \([0-9.]*\) a second.*/\1/' | median)
echo "== median of $runs runs: p99 before $b99 ms; during the burst p50 $d50 ms, p99 $d99 ms; $rate sign-ins a second"
