#!/bin/sh
# Tables of computer players only as a sink for the server's workers (issue
# 21, point 9): a person's wait for three computer moves, alone and beside
# the tables of four hard computer players that 33 sessions ask for.
#
# usage: bench/botsink.sh [BUILD_DIR] [BARBU...] [-- SESSIONS ROUNDS LEVEL]
#
#   BUILD_DIR  a Release build (default build-bench, configured and built here
#              when missing); its barbu is measured unless BARBUs are given
#   BARBU      barbu programs to compare, e.g. an older build's copy
#   SESSIONS   sessions that each ask for such a table (default 33)
#   ROUNDS     waits measured each time (default 8)
#   LEVEL      the person's computer players (default hard, at the default
#              delay of 600 ms)
#
# Each barbu runs with its default worker threads (one a core, at least two
# since the fix).  Prints, for each, how many tables the server took and the
# median, best and worst wait before and beside them.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=build-bench
case "${1:-}" in
    -*|"") ;;
    *) if [ -d "$1" ]; then build=$1; shift; fi ;;
esac
case "$build" in /*) ;; *) build="$here/$build" ;; esac
if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBARBU_WEB=OFF >/dev/null
fi
cmake --build "$build" --target barbu bench_botsink >/dev/null
programs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    programs="$programs $1"
    shift
done
[ "${1:-}" = "--" ] && shift
[ -n "$programs" ] || programs="$build/barbu"
for barbu in $programs; do
    echo "== $barbu"
    "$build/bench_botsink" "$barbu" "$@" | grep '^botsink:'
done
