#!/bin/sh
# What one action's commit costs through the store's API (bench/commit.c):
# a SQLite file on this machine's disk beside PostgreSQL in a private
# cluster with its defaults for the disk (fsync on, synchronous_commit on),
# started here under /tmp and removed at the end.
#
# usage: bench/commit.sh [BUILD_DIR] [--runs N] [--n N] [--writers LIST]
#
#   BUILD_DIR     a Release build (default build-bench, configured and built
#                 here when missing)
#   --runs N      each case N times (default 3)
#   --n N         appends counted per case (default 5000); with K writers
#                 each makes N/K, so every case counts N
#   --writers L   the numbers of PostgreSQL writers at once to try beyond
#                 one (default 4,16): each its own connection and table
#
# The cases: SQLite (WAL, synchronous=NORMAL: a commit is in the operating
# system's hands, not on the disk); PostgreSQL with one writer; the same as
# a node (node_join, every append fenced by the table's epoch); K writers
# at once; and one writer with synchronous_commit=off (PGOPTIONS), the
# nearest PostgreSQL comes to SQLite's NORMAL, for comparison only: the
# server keeps the default.  Each line starts with the machine's load
# average (uptime) when the case began: the machine may be shared.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=build-bench
case "${1:-}" in
    -*|"") ;;
    *) build=$1; shift ;;
esac
case "$build" in /*) ;; *) build="$here/$build" ;; esac
runs=3
n=5000
writers=4,16
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=${2:?--runs wants a number}; shift 2 ;;
        --n) n=${2:?--n wants a number}; shift 2 ;;
        --writers) writers=${2:?--writers wants a list}; shift 2 ;;
        *) echo "usage: bench/commit.sh [BUILD_DIR] [--runs N] [--n N] [--writers LIST]" >&2; exit 2 ;;
    esac
done
if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --target bench_commit >/dev/null
bench=$build/bench_commit

psql=$(command -v psql || true)
if [ -z "$psql" ]; then
    for d in /usr/lib/postgresql/*/bin; do
        [ -x "$d/psql" ] && psql=$d/psql
    done
fi
[ -n "$psql" ] || { echo "bench/commit.sh: psql not found (apt-get install postgresql)" >&2; exit 1; }

# The SQLite file in a folder of our own; the cluster in its own folder
# directly under /tmp (cluster.sh gives it to the user nobody when root,
# who could not reach into a private folder).
sqdir=$(mktemp -d /tmp/barbu-commit-XXXXXX)
pgdir=/tmp/barbu-commit-pg-$$
cleanup() {
    sh "$here/tests/pg/cluster.sh" stop "$pgdir" || true
    rm -rf "$sqdir"
}
trap cleanup EXIT INT TERM
admin=$(sh "$here/tests/pg/cluster.sh" start "$pgdir" --fsync)

fs=$(stat -f -c %T /tmp 2>/dev/null || echo unknown)
echo "bench_commit: $n appends a case, $runs runs; the SQLite file and the cluster under /tmp ($fs)"
echo "PostgreSQL: $("$psql" "$admin" -Atc 'show server_version'); fsync $("$psql" "$admin" -Atc 'show fsync'), synchronous_commit $("$psql" "$admin" -Atc 'show synchronous_commit'), wal_sync_method $("$psql" "$admin" -Atc 'show wal_sync_method')"
echo "$(nproc) CPUs"
echo

load() {
    uptime | sed 's/.*load average: /load /'
}

# A fresh database in the cluster: fresh NAME prints its URL.
fresh() {
    "$psql" "$admin" -qc "set client_min_messages = warning" -c "drop database if exists $1" -c "create database $1" >/dev/null
    echo "$admin" | sed "s|/postgres?|/$1?|"
}

# one NAME ARGS...: run bench_commit, print the load and its line.
one() {
    printf '%-36s [%s] ' "$1" "$(load)"
    shift
    "$bench" "$@" || echo "(failed: see above)"
}

i=1
while [ "$i" -le "$runs" ]; do
    echo "== run $i of $runs"
    rm -f "$sqdir"/commit.db*
    one "sqlite" "$sqdir/commit.db" --n "$n"
    url=$(fresh alone)
    one "postgresql" "$url" --n "$n"
    url=$(fresh node)
    one "postgresql, a node" "$url" --n "$n" --node
    for k in $(echo "$writers" | tr ',' ' '); do
        url=$(fresh writers$k)
        one "postgresql, $k writers" "$url" --n $((n / k)) --writers "$k"
    done
    url=$(fresh async)
    PGOPTIONS="-c synchronous_commit=off" one "postgresql, synchronous_commit off" "$url" --n "$n"
    i=$((i + 1))
done
