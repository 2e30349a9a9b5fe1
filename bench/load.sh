#!/bin/sh
# How many tables one barbu server holds with an action-to-update latency
# (p99) under 50 ms: the load benchmark of bench/load.c.
#
# usage: bench/load.sh [BUILD_DIR] [bench_load options]
#
#   BUILD_DIR  a Release build to use (default build-bench, configured and
#              built here when missing)
#   options    passed to bench_load, e.g. --steps 100,500,1000 --hold 10
#              (defaults: steps 100,250,500,1000,1500,2000,3000,4000,5000;
#              hold 20 s; at most 300 s in all; bot delay 1000 ms; think
#              500 +- 250 ms; limit 50 ms); --keep /dev/shm/DIR puts the
#              database on tmpfs, to tell the disk's share of the latency
#
# Each table is one client (North) against three heuristic computer players
# on uk rules.  On a machine with two or more CPUs the server runs on CPU 0
# and the load program on CPU 1 (taskset), so the clients do not take the
# server's time; on one CPU both share it.  The report is a table per step:
# latency p50/p99/max, actions served per second, the server's CPU and RSS,
# and RSS per table over the idle server.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=build-bench
case "${1:-}" in
    -*|"") ;;
    *) build=$1; shift ;;
esac
case "$build" in /*) ;; *) build="$here/$build" ;; esac
if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --target barbu bench_load >/dev/null
cpus=$(nproc 2>/dev/null || echo 1)
if [ "$cpus" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
    exec taskset -c 1 "$build/bench_load" "$build/barbu" --server-cpus 0 --client-cpus 1 "$@"
fi
exec "$build/bench_load" "$build/barbu" "$@"
