#!/bin/sh
# How many tables one barbu server holds with an action-to-update latency
# (p99) under 50 ms: the load benchmark of bench/load.c.
#
# usage: bench/load.sh [BUILD_DIR] [--runs N] [--db pg] [--nodes N] [bench_load options]
#
#   BUILD_DIR  a Release build to use (default build-bench, configured and
#              built here when missing)
#   --runs N   run the benchmark N times (default 1) and report each run's
#              answer and their median: on a shared machine one run says
#              little
#   options    passed to bench_load, e.g. --steps 100,500,1000 --hold 10
#              (defaults: steps 100,250,500,1000,1500,2000,3000,4000,5000;
#              hold 20 s; at most 300 s in all; bot delay 1000 ms; think
#              500 +- 250 ms; limit 50 ms); --keep /dev/shm/DIR puts the
#              database on tmpfs, to tell the disk's share of the latency
#   --db pg    the server on PostgreSQL: a private cluster started here
#              under /tmp with PostgreSQL's defaults for the disk (fsync
#              on; tests/pg/cluster.sh --fsync), a fresh database each run,
#              the cluster removed at the end.  The database runs on the
#              server's CPU (taskset), so the server's side of the machine
#              is one CPU whatever the database
#   --nodes N  N servers, each a node (--node), on that one database
#              (needs --db pg): the clients make their tables on each node
#              in turn; the servers' CPU and memory are their sums
#
# BARBU=PATH runs that barbu program instead of the build's (an older one,
# say, for a before and after).  The database is in a fresh directory under
# /tmp unless --keep says otherwise; the report names the filesystem it is
# on, since a disk (fsyncs) and tmpfs (none) give different answers.
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
runs=1
if [ "${1:-}" = "--runs" ]; then
    runs=${2:?--runs wants a number}
    shift 2
fi
# --db pg and --nodes N are this script's; the rest go to bench_load.
pg=false
nodes=1
want=
for a do
    shift
    case "$want" in
        db)
            [ "$a" = pg ] || { echo "bench/load.sh: --db takes pg (a SQLite file is the default)" >&2; exit 2; }
            pg=true; want=; continue ;;
        nodes) nodes=$a; want=; continue ;;
    esac
    case "$a" in
        --db) want=db ;;
        --nodes) want=nodes ;;
        *) set -- "$@" "$a" ;;
    esac
done
case "$nodes" in ''|*[!0-9]*|0) echo "bench/load.sh: --nodes wants a number from 1, not '$nodes'" >&2; exit 2 ;; esac
if [ "$nodes" -gt 1 ] && ! $pg; then
    echo "bench/load.sh: --nodes $nodes needs --db pg (nodes share a PostgreSQL database)" >&2
    exit 2
fi
case "$runs" in ''|*[!0-9]*|0) echo "bench/load.sh: --runs wants a number from 1, not '$runs'" >&2; exit 2 ;; esac
if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --target barbu bench_load >/dev/null
barbu=${BARBU:-$build/barbu}

# Where the database goes, and on what.
dbdir=/tmp
prev=
for a in "$@"; do
    [ "$prev" = "--keep" ] && dbdir=$a
    prev=$a
done
cpus=$(nproc 2>/dev/null || echo 1)
pinned=false
if [ "$cpus" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
    pinned=true
fi

pgdir=
if $pg; then
    dbdir=/tmp
    pgdir=/tmp/barbu-load-pg-$$
    psql=$(command -v psql || true)
    for d in /usr/lib/postgresql/*/bin; do
        [ -n "$psql" ] || { [ -x "$d/psql" ] && psql=$d/psql; }
    done
    trap 'sh "$here/tests/pg/cluster.sh" stop "$pgdir" || true' EXIT
    trap 'exit 130' INT TERM
    if $pinned; then
        admin=$(taskset -c 0 sh "$here/tests/pg/cluster.sh" start "$pgdir" --fsync)
    else
        admin=$(sh "$here/tests/pg/cluster.sh" start "$pgdir" --fsync)
    fi
    dbpid=$(head -1 "$pgdir/data/postmaster.pid")
fi
fs=$(stat -f -c %T "$dbdir" 2>/dev/null || echo unknown)
if [ "$fs" = tmpfs ]; then where="tmpfs (no disk: fsyncs cost nothing)"; else where="a disk ($fs)"; fi
if $pg; then
    echo "barbu: $barbu, $nodes node(s); PostgreSQL (fsync on) under $dbdir on $where"
else
    echo "barbu: $barbu; the database under $dbdir is on $where"
fi
echo "load before the run: $(uptime | sed 's/.*load average: //')"

run_once() {
    run=${i:-1}
    if $pg; then
        # A fresh database each run.
        "$psql" "$admin" -qc "create database load$run" >/dev/null
        set -- --db "$(echo "$admin" | sed "s|/postgres?|/load$run?|")" --db-pid "$dbpid" \
            --nodes "$nodes" "$@"
    fi
    if $pinned; then
        taskset -c 1 "$build/bench_load" "$barbu" --server-cpus 0 --client-cpus 1 "$@"
    else
        "$build/bench_load" "$barbu" "$@"
    fi
}
if [ "$runs" -eq 1 ]; then
    run_once "$@"
    exit
fi
answers=
i=1
while [ "$i" -le "$runs" ]; do
    echo "== run $i of $runs (load $(uptime | sed 's/.*load average: //'))"
    out=$(run_once "$@") || true
    echo "$out"
    held=$(echo "$out" | sed -n 's/^largest step with p99 < [0-9]* ms: \([0-9]*\) tables$/\1/p')
    answers="$answers ${held:-0}"
    i=$((i + 1))
done
median=$(echo "$answers" | tr ' ' '\n' | sed '/^$/d' | sort -n |
    awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
echo
echo "tables held with p99 under the limit, $runs runs on $where:$answers; median $median"
