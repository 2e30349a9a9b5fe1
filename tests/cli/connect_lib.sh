# connect_lib.sh - what the tests of barbu connect in a real terminal share:
# a temporary directory, a tmux server of their own, a barbu serve on a
# free port, the clients' terminals and the waits on their screens.
# Sourced by the tests (". "$(dirname "$0")/connect_lib.sh") after they set
# barbu (the program); each sets its own deadline (seconds since the epoch)
# after, which every wait on a screen respects.  POSIX sh.
#
# It gives: $tmp (removed at exit, with the tmux server and the barbu serve
# started by serve_start), T (tmux on the tests' own socket), ok and bad
# (bad sets fail=1), shows, key, start, finished and quit (below), and
# serve_start, which sets server_pid, port and url.

if ! command -v tmux >/dev/null 2>&1; then
    echo "FAIL tmux is not installed: barbu connect needs a terminal to be tested (scripts/setup.sh installs it)"
    exit 1
fi
tmp=$(mktemp -d)
unset TMUX
T() { tmux -S "$tmp/tmux.sock" "$@"; }
server_pid=
cleanup() {
    T kill-server 2>/dev/null
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null
        wait "$server_pid" 2>/dev/null
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
deadline=$(($(date +%s) + 240))

# shows NAME PATTERN SECONDS: waits until the screen shows PATTERN (grep -E);
# the screen is then in $tmp/screen.
shows() {
    i=0
    while [ "$i" -lt $(($3 * 10)) ] && [ "$(date +%s)" -lt "$deadline" ]; do
        T capture-pane -p -t "$1" >"$tmp/screen" 2>/dev/null || return 1
        grep -Eq "$2" "$tmp/screen" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# key NAME KEYS...: sends keys, then waits for the screen to change (1 s at most).
key() {
    name=$1
    shift
    T capture-pane -p -t "$name" >"$tmp/before" 2>/dev/null
    T send-keys -t "$name" "$@"
    j=0
    while [ $j -lt 50 ]; do
        sleep 0.02
        T capture-pane -p -t "$name" >"$tmp/screen" 2>/dev/null || return 0
        cmp -s "$tmp/screen" "$tmp/before" || return 0
        j=$((j + 1))
    done
}

# serve_start [ARGS...]: barbu serve ARGS on a free port of 127.0.0.1 with
# its database in $tmp/server.db; waits until it says its port, then sets
# port and url (its ws:// or, with TLS, wss:// address).  Exits the test
# when it does not start.
serve_start() {
    "$barbu" serve --listen 127.0.0.1:0 --db "$tmp/server.db" "$@" >"$tmp/serve.out" 2>"$tmp/serve.err" &
    server_pid=$!
    port=
    i=0
    while [ $i -lt 100 ] && [ -z "$port" ]; do
        port=$(sed -n 's|^barbu serve: listening on wss\{0,1\}://127\.0\.0\.1:\([0-9]*\)/ws$|\1|p' "$tmp/serve.out")
        [ -n "$port" ] && break
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
        i=$((i + 1))
    done
    if [ -z "$port" ]; then
        bad "barbu serve $* starts and says its port"
        cat "$tmp/serve.out" "$tmp/serve.err"
        exit 1
    fi
    url=$(sed -n 's|^barbu serve: listening on \(wss\{0,1\}://127\.0\.0\.1:[0-9]*\)/ws$|\1|p' "$tmp/serve.out")
    ok "barbu serve $* listens on $url"
}

# start NAME WIDTH HEIGHT ARGS...: barbu connect ARGS in a new terminal, in
# $tmp (where a saved record goes), with its state (the token) in
# $tmp/state; its process id goes to $tmp/NAME.pid, its exit status to
# $tmp/NAME.rc and its errors to $tmp/NAME.err.
start() {
    name=$1 width=$2 height=$3
    shift 3
    rm -f "$tmp/$name.rc"
    T new-session -d -s "$name" -x "$width" -y "$height" \
        "cd '$tmp' && XDG_STATE_HOME='$tmp/state' timeout --foreground 200 sh -c 'echo \$\$ >\"$tmp/$name.pid\"; exec \"$barbu\" connect $*' 2>'$tmp/$name.err'; echo \$? >'$tmp/$name.rc'"
}

# finished NAME SECONDS: waits until the client NAME has exited.
finished() {
    i=0
    while [ $i -lt $(($2 * 10)) ] && [ ! -s "$tmp/$1.rc" ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ -s "$tmp/$1.rc" ]
}

# quit NAME: q, then y at the question; waits until the client has exited.
quit() {
    T send-keys -t "$1" q
    shows "$1" "Quit\?" 3 && T send-keys -t "$1" y
    finished "$1" 10
}
