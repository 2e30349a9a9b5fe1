#!/bin/sh
# barbu connect and two barbu serve nodes on one PostgreSQL database (issue
# 25), in tmux.  Node a and node b share a fresh database in the test
# cluster (the CTest fixture pg: BARBU_TEST_PG), with --lease 1.5.
#   - alice, connected to a, makes a table with three computer players and
#     plays a little; her client is killed and started again with the same
#     token file but node b's address: b says `moved`, the client follows
#     it to a and she is back at her seat (the redirect);
#   - bob, on b, sees the table in b's lobby and kibitzes it: b says moved,
#     his client goes to a and asks to kibitz again there;
#   - node a is stopped (SIGSTOP) until b has adopted the table, then
#     continued: a sends its clients `moved` to b; alice plays on there and
#     bob kibitzes again there (the partition);
#   - node b is killed (SIGKILL): alice's client tries the addresses it
#     knows, a adopts the table once b's lease has run out, and she plays on
#     at the same seat through a (the failover).
# A client that ignores `moved` stays in b's lobby and fails the first.
# usage: connect_nodes.sh BARBU SOURCE_DIR
set -u
barbu=$1
if [ -z "${BARBU_TEST_PG:-}" ]; then
    echo "FAIL BARBU_TEST_PG is not set: run through CTest (fixture pg), or start tests/pg/cluster.sh and export the URL it prints"
    exit 1
fi
. "$(dirname "$0")/connect_lib.sh"
# Two nodes here, not the library's one server: the cleanup stops both.
pid_a= pid_b=
cleanup() {
    T kill-server 2>/dev/null
    for p in $pid_a $pid_b; do
        kill -9 "$p" 2>/dev/null
        wait "$p" 2>/dev/null
    done
    rm -rf "$tmp"
}
deadline=$(($(date +%s) + 200))

# plays NAME N: answers N of NAME's turns by keys (the first contract, the
# first trump or rank, no double, the card under the cursor), at most 40 s.
plays() {
    n=0
    t_end=$(($(date +%s) + 40))
    while [ $n -lt "$2" ] && [ "$(date +%s)" -lt "$t_end" ]; do
        T capture-pane -p -t "$1" >"$tmp/screen" 2>/dev/null || break
        if grep -q "Press any key to go on" "$tmp/screen"; then
            key "$1" Enter
        elif grep -q "Choose a contract" "$tmp/screen"; then
            key "$1" 1
            n=$((n + 1))
        elif grep -Eq "the trump suit|the start rank" "$tmp/screen"; then
            key "$1" Enter
        elif grep -q "0 none  m max" "$tmp/screen"; then
            key "$1" 0
            key "$1" Enter
            n=$((n + 1))
        elif grep -Eq "Your lead|Your turn|to pass" "$tmp/screen"; then
            key "$1" Enter
            n=$((n + 1))
        else
            sleep 0.1
        fi
    done
    [ $n -ge "$2" ]
}

# goes_on NAME: four of NAME's turns answered, and at least four more
# actions stored for the table: the computer players make at most three
# before her turn, so one of hers at least was taken (a client talking to a
# node that no longer holds the table would only press keys).
actions() {
    psql -qtA -d "$db" -c "select count(*) from actions where table_id = $table" 2>/dev/null || echo 0
}
goes_on() {
    c0=$(actions)
    plays "$1" 4 || return 1
    i=0
    while [ $i -lt 50 ]; do
        [ "$(actions)" -ge $((c0 + 4)) ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# talks_to NAME PORT SECONDS: waits until NAME's client has an established
# TCP connection to 127.0.0.1:PORT (its sockets in /proc/PID/fd matched with
# /proc/net/tcp), so that a test knows which node a client is at.
talks_to() {
    want=$(printf ':%04X' "$2")
    i=0
    while [ $i -lt $(($3 * 10)) ]; do
        inodes=$(ls -l "/proc/$(cat "$tmp/$1.pid")/fd" 2>/dev/null |
            sed -n 's/.*socket:\[\([0-9]*\)\].*/\1/p' | tr '\n' ' ')
        if [ -n "$inodes" ] && awk -v want="$want" -v inodes=" $inodes" \
            'NR > 1 && $4 == "01" && substr($3, length($3) - 4) == want &&
             index(inodes, " " $10 " ") { found = 1 } END { exit !found }' /proc/net/tcp; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# ---------------------------------------------------------------- the nodes
db_name="connect_nodes_$$"
if ! psql -q -v ON_ERROR_STOP=1 -d "$BARBU_TEST_PG" -c "DROP DATABASE IF EXISTS $db_name" \
    -c "CREATE DATABASE $db_name" >"$tmp/psql.out" 2>&1; then
    bad "a fresh database in the test cluster"
    cat "$tmp/psql.out"
    exit 1
fi
db=$(echo "$BARBU_TEST_PG" | sed "s|/postgres?|/$db_name?|")

# node NAME: starts the node on a free port (tried from a random one up),
# setting port_NAME and pid_NAME.
node() {
    p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 30000))
    tries=0
    while [ $tries -lt 20 ]; do
        "$barbu" serve --listen "127.0.0.1:$p" --db "$db" --node "$1" \
            --public-url "ws://127.0.0.1:$p/ws" --lease 1.5 \
            >"$tmp/$1.out" 2>"$tmp/$1.err" &
        pid=$!
        i=0
        while [ $i -lt 100 ]; do
            if grep -q "listening on ws://127.0.0.1:$p/ws" "$tmp/$1.out"; then
                eval "port_$1=$p pid_$1=$pid"
                return 0
            fi
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
            i=$((i + 1))
        done
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        p=$((p + 1))
        tries=$((tries + 1))
    done
    return 1
}
if node a && node b; then
    ok "nodes a (port $port_a) and b (port $port_b) run on one database"
else
    bad "nodes a and b start on one database"
    cat "$tmp/a.err" "$tmp/b.err" 2>/dev/null
    exit 1
fi
url_a="ws://127.0.0.1:$port_a/ws"
url_b="ws://127.0.0.1:$port_b/ws"

# ------------------------------------------------------- a table on node a
start alice 120 40 "$url_a" --name alice --token-file "$tmp/alice.token"
shows alice "barbu connect .* alice .*connected" 10 || {
    bad "alice connects to node a"
    cat "$tmp/screen" "$tmp/alice.err"
    exit 1
}
# The form: uk, seed 12, South, easy computer players in the other seats,
# delay 0, a household's table (bob kibitzes from alice's address).
key alice n
shows alice "A new table" 5
key alice Down
key alice 1 2
key alice Down Down Down
key alice Right Right Right
key alice Down Down
key alice BSpace BSpace BSpace 0
key alice Down Down Down
key alice Right
grep -Eq "Household .*yes" "$tmp/screen" || bad "the form makes a household's table"
key alice Enter
if shows alice "South \(alice, you\)" 10; then
    ok "alice makes a table on node a with three computer players and sits South"
else
    bad "alice makes a table on node a with three computer players and sits South"
    cat "$tmp/screen"
    exit 1
fi
table=$(sed -n 's/.*barbu connect table \([0-9]*\) .*/\1/p' "$tmp/screen" | head -n 1)
goes_on alice && ok "she plays on node a" || bad "she plays on node a"

# ----------------------------------------------------- moved: node b sends her to a
kill -9 "$(cat "$tmp/alice.pid")"
finished alice 10
T kill-session -t alice 2>/dev/null
start alice2 120 40 "$url_b" --name alice --token-file "$tmp/alice.token"
if shows alice2 "South \(alice, you\)" 20 && grep -q "barbu connect table $table " "$tmp/screen" &&
    grep -q "connected" "$tmp/screen" && talks_to alice2 "$port_a" 5; then
    ok "started on node b with her token, alice is sent to node a and is back at table $table"
else
    bad "started on node b with her token, alice is sent to node a and is back at table $table"
    cat "$tmp/screen"
fi
goes_on alice2 && ok "she plays on after the redirect" || bad "she plays on after the redirect"

# bob, on node b, kibitzes the table of node a.
start bob 110 30 "$url_b" --name bob --token-file "$tmp/bob.token"
if shows bob "\*?$table +uk .*alice" 15; then
    ok "node b's lobby lists node a's table $table"
    key bob k
    key bob n
    if shows bob "barbu kibitz table $table" 15 && grep -q "kibitzing North" "$tmp/screen" &&
        talks_to bob "$port_a" 5; then
        ok "bob's kibitz is sent on to node a and asked again there"
    else
        bad "bob's kibitz is sent on to node a and asked again there"
        cat "$tmp/screen"
    fi
else
    bad "node b's lobby lists node a's table $table"
    cat "$tmp/screen"
fi

# ------------------------------------------- node a cut off, then back
# SIGSTOP past its lease: node b adopts the table (the database says so);
# SIGCONT: a finds its lease lost and sends its players and kibitzers
# `moved` to b, which alice's and bob's clients follow while still
# connected to a, bob asking again to kibitz there.
owner() {
    psql -qtA -d "$db" -c "select coalesce(owner, '') from tables where id = $table" 2>/dev/null
}
kill -STOP "$pid_a"
i=0
while [ $i -lt 150 ] && [ "$(owner)" != b ]; do
    sleep 0.2
    i=$((i + 1))
done
kill -CONT "$pid_a"
if [ "$(owner)" = b ]; then
    ok "node b adopts table $table while node a is stopped"
else
    bad "node b adopts table $table while node a is stopped (owner: $(owner))"
fi
if shows alice2 "connected" 20 && goes_on alice2; then
    ok "moved by node a once it is continued, alice plays on at node b"
else
    bad "moved by node a once it is continued, alice plays on at node b"
    cat "$tmp/screen"
fi
if talks_to bob "$port_b" 15 && ! talks_to bob "$port_a" 0 && shows bob "barbu kibitz table $table" 15 &&
    grep -q "kibitzing North" "$tmp/screen" && grep -q "connected" "$tmp/screen"; then
    ok "bob follows the table to node b and kibitzes it again there"
else
    bad "bob follows the table to node b and kibitzes it again there"
    cat "$tmp/screen"
fi

# ----------------------------------------------------------- node b dies
# Node b now holds the table: killed, node a adopts it and alice's client,
# which knows both addresses, finds her seat there.
kill -9 "$pid_b"
wait "$pid_b" 2>/dev/null
pid_b=
if shows alice2 "offline|connecting" 10; then
    ok "alice's client sees node b go"
else
    bad "alice's client sees node b go"
    cat "$tmp/screen"
fi
if shows alice2 "connected" 40 && grep -q "South (alice, you)" "$tmp/screen" &&
    grep -q "barbu connect table $table " "$tmp/screen"; then
    ok "through node a, once it adopted table $table, alice is back at her seat"
else
    bad "through node a, once it adopted table $table, alice is back at her seat"
    cat "$tmp/screen" "$tmp/a.err"
fi
goes_on alice2 && ok "the game goes on through node a" || bad "the game goes on through node a"
[ "$(owner)" = a ] && ok "node a holds table $table" || bad "node a holds table $table (owner: $(owner))"

# ------------------------------------------------------------------- end
# quits NAME: q, then y once the client asks (q again if the question did
# not come: a key may land while the screen changes under it).
quits() {
    for _ in 1 2 3; do
        key "$1" q
        if shows "$1" "Quit\?" 5; then
            key "$1" y
            return
        fi
    done
}
quits bob
quits alice2
if finished alice2 20 && [ "$(cat "$tmp/alice2.rc")" = 0 ] && finished bob 20 &&
    [ "$(cat "$tmp/bob.rc")" = 0 ]; then
    ok "alice and bob quit"
else
    bad "alice and bob quit"
    cat "$tmp/alice2.err" "$tmp/bob.err" 2>/dev/null
fi
kill "$pid_a"
wait "$pid_a"
rc=$?
pid_a=
[ $rc = 0 ] && ok "node a stops on SIGTERM" || bad "node a stops on SIGTERM (exit $rc)"
exit $fail
