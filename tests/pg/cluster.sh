#!/bin/sh
# A private PostgreSQL cluster for the tests: made in a folder of the build,
# owned by an unprivileged user (initdb refuses root), listening on a Unix
# socket in that folder only (no TCP port to collide with), and removed when
# stopped.  The tests connect as the cluster's superuser "barbu" with
#   postgresql://barbu@/DBNAME?host=DIR/run&port=5432
# (tests/pg/pg_test.c makes a fresh database per test).
# usage: cluster.sh start|stop DIR [--fsync]
#   --fsync  (start) keep PostgreSQL's defaults for the disk: fsync and
#            full-page writes on, as a real server runs; the benchmarks of
#            bench/ use it, the tests do not
set -eu

cmd=${1:-}
dir=${2:-}
fsync=off
case "${3:-}" in
"") ;;
--fsync) fsync=on ;;
*)
    echo "usage: tests/pg/cluster.sh start|stop DIR [--fsync]" >&2
    exit 2
    ;;
esac
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    echo "usage: tests/pg/cluster.sh start|stop DIR [--fsync]" >&2
    exit 2
fi

bindir=""
for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && bindir=$d
done
if [ -z "$bindir" ]; then
    echo "cluster.sh: PostgreSQL's initdb not found (apt-get install postgresql; make check does)" >&2
    exit 1
fi

# Run as the unprivileged user nobody when root, as oneself otherwise.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u nobody -- "$@"
    else
        "$@"
    fi
}

case "$cmd" in
start)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    mkdir -p "$dir/run"
    if [ "$(id -u)" -eq 0 ]; then
        chown -R nobody "$dir"
    fi
    as_owner "$bindir/initdb" -D "$dir/data" -U barbu --auth=trust -E UTF8 --locale=C.UTF-8 \
        --no-instructions >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }
    # fsync off: the tests need what a commit means to the other sessions,
    # not what it means to the disk (bench/ measures with the defaults,
    # --fsync).
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses='' -k $dir/run -p 5432 -c fsync=$fsync -c full_page_writes=$fsync -c max_connections=300" \
        start >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
    echo "postgresql://barbu@/postgres?host=$dir/run&port=5432"
    ;;
stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: tests/pg/cluster.sh start|stop DIR [--fsync]" >&2
    exit 2
    ;;
esac
