#!/bin/sh
# The club's pages under load: latency of the JSON twins over a generated
# history (bench/club_gen.c, bench/club_load.c; docs/club.md, "Measured").
#
# usage: bench/club.sh [BUILD_DIR] [--runs N] [--n N] [--games N] [--players N]
#                      [--nice N]
#
#   BUILD_DIR  a Release build with bench_club_gen, bench_club_load and barbu
#              (default build-bench, configured and built here when missing)
#   --runs N   load runs against the same server (default 3); each prints
#              its table, then the median of the runs' medians and p99s
#   --n N      requests of each kind a run (default 300); the kinds are
#              asked one after the other, and the server's CPU time per
#              request is measured beside the latency (bench_club_load --pid)
#   --games N, --players N   the history (default 100000 games, 1000 players)
#   --nice N   run the server and the load at this niceness (-15 needs root):
#              on a machine busy with other work, what a core of its own
#              would give
#
# The database is generated once into a fresh directory (CLUB_DB=PATH keeps
# and reuses one: generating 100,000 games takes one to two minutes;
# CLUB_DB=postgresql://... puts the history in that PostgreSQL database,
# created beforehand and empty, or holding a history made earlier), then
# `taskset -c 0 barbu serve --db DB` answers while bench_club_load, on CPU 1
# when there is one, asks: the month's and a year's ladder, a player's page,
# an archive query with filters, a game's page, a computer level's page, one
# request at a time on one keep-alive connection.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=build-bench
case "${1:-}" in
    -*|"") ;;
    *) build=$1; shift ;;
esac
case "$build" in /*) ;; *) build="$here/$build" ;; esac
runs=3 n=300 games=100000 players=1000 nice=0
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --n) n=$2; shift 2 ;;
        --games) games=$2; shift 2 ;;
        --players) players=$2; shift 2 ;;
        --nice) nice=$2; shift 2 ;;
        *) echo "bench/club.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if [ ! -x "$build/bench_club_load" ] || [ ! -x "$build/bench_club_gen" ]; then
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBARBU_WEB=OFF >/dev/null
    cmake --build "$build" --target barbu bench_club_gen bench_club_load
fi
work=$(mktemp -d /tmp/barbu-club-bench.XXXXXX)
db=${CLUB_DB:-$work/club.db}
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
case "$db" in
postgresql://*|postgres://*)
    # bench_club_gen leaves a database that has a history as it is.  The
    # URL is not printed: it may carry a password.
    echo "generating $games games among $players players into the PostgreSQL database"
    "$build/bench_club_gen" "$db" --games "$games" --players "$players"
    ;;
*)
    if [ ! -s "$db" ]; then
        echo "generating $games games among $players players into $db"
        "$build/bench_club_gen" "$db" --games "$games" --players "$players"
    fi
    echo "database: $(du -h "$db" | cut -f1)"
    ;;
esac

cpus=$(nproc)
pin_server="nice -n $nice" pin_client="nice -n $nice"
if [ "$cpus" -ge 2 ]; then
    pin_server="$pin_server taskset -c 0"
    pin_client="$pin_client taskset -c 1"
elif command -v taskset >/dev/null; then
    pin_server="$pin_server taskset -c 0"
fi
$pin_server "$build/barbu" serve --db "$db" --listen 127.0.0.1:0 --quiet >"$work/out" 2>&1 &
server=$!
port=
for _ in $(seq 1 100); do
    port=$(sed -n 's|.*listening on ws://127.0.0.1:\([0-9]*\)/ws.*|\1|p' "$work/out")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "bench/club.sh: the server did not start" >&2; cat "$work/out" >&2; exit 1; }

for r in $(seq 1 "$runs"); do
    echo "== run $r"
    $pin_client "$build/bench_club_load" "$port" --n "$n" --players "$players" --games "$games" \
        --pid "$server" | tee "$work/run$r"
done
echo "== median of $runs runs (ms): kind, median, p99, server CPU a request"
median() {
    tr -d ms | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
for kind in "ladder (month)" "ladder (year)" "player page" "archive query" "game page" "level page"; do
    med=$(grep -h "^$kind " "$work"/run* | awk '{print $(NF-4)}' | median)
    p99=$(grep -h "^$kind " "$work"/run* | awk '{print $(NF-3)}' | median)
    cpu=$(grep -h "^$kind " "$work"/run* | awk '{print $NF}' | median)
    printf "%-16s %8s %8s %8s\n" "$kind" "$med" "$p99" "$cpu"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $cpus CPUs"
