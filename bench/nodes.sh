#!/bin/sh
# From a node's SIGKILL to its last table playing again on another node
# (bench/nodes.c): three nodes on one PostgreSQL database, T tables of
# computer players made on node a (one client each), a killed, and the
# database watched until every one of a's tables has a new action.
#
# usage: bench/nodes.sh [BUILD_DIR] [bench_nodes options]
#
#   BUILD_DIR  a Release build (default build-bench, configured and built
#              here when missing)
#   options    passed to bench_nodes: --tables LIST (10,100,500), --runs N
#              (3; the median is reported), --lease S (5, the server's
#              default), --delay MS (the computer players', 5000)
#
# BARBU=PATH runs that barbu program instead of the build's.  The cluster
# is private, under /tmp, with PostgreSQL's defaults for the disk (fsync
# on: tests/pg/cluster.sh --fsync), and removed at the end.  Nothing is
# pinned: the nodes, the database and the clients share the machine, whose
# load average is printed before and after.
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
cmake --build "$build" --target barbu bench_nodes >/dev/null
barbu=${BARBU:-$build/barbu}

pgdir=/tmp/barbu-nodes-pg-$$
trap 'sh "$here/tests/pg/cluster.sh" stop "$pgdir" || true' EXIT
trap 'exit 130' INT TERM
admin=$(sh "$here/tests/pg/cluster.sh" start "$pgdir" --fsync)
echo "barbu: $barbu; PostgreSQL (fsync on) under /tmp ($(stat -f -c %T /tmp)); $(nproc) CPUs"
echo "load before: $(uptime | sed 's/.*load average: //')"
"$build/bench_nodes" "$barbu" "$admin" "$@"
echo "load after: $(uptime | sed 's/.*load average: //')"
