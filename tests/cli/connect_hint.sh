#!/bin/sh
# barbu connect's hint (issue 26) in a real terminal (tmux) against a real
# barbu serve: alice creates a table with hints and three easy computer
# players from the lobby's form (its Hints field), and at her turn the ?
# key asks the server for a hint, which the message line says (asked again
# after the server died before answering and came back); ? again shows the
# keys, which name it.  Every wait has a deadline.
# usage: connect_hint.sh BARBU SOURCE_DIR
set -u
barbu=$1
. "$(dirname "$0")/connect_lib.sh"
# The whole script gives up after this (two minutes).
deadline=$(($(date +%s) + 120))

# ------------------------------------------------------------------ server
serve_start

# ------------------------------------------------------------------- lobby
start alice 120 40 "$url" --name alice
shows alice "barbu connect .* alice .*connected" 10 && ok "alice connects" || bad "alice connects"

# The form: seed 12, South, easy computer players (medium, then Right
# through hard, random, easy), delay 0, and Hints yes.
key alice n
if shows alice "A new table" 5; then
    grep -Eq "Hints .*no" "$tmp/screen" && ok "the form has a Hints field, no by default" ||
        bad "the form has a Hints field, no by default"
    key alice Down
    key alice 1 2
    key alice Down Down Down
    key alice Right
    key alice Right
    key alice Right
    key alice Down Down
    key alice BSpace BSpace BSpace 0
    key alice Down Down Down Down Down Down Down
    key alice Right
    grep -Eq "Hints .*yes" "$tmp/screen" && ok "the form's Hints field says yes" ||
        bad "the form's Hints field says yes"
    cp "$tmp/screen" "$tmp/form.screen"
    key alice Enter
fi
if shows alice "South \(alice, you\)" 10; then
    ok "the form creates the table and seats alice South"
else
    bad "the form creates the table and seats alice South"
    cat "$tmp/form.screen" "$tmp/screen"
fi

# The computer players play at once: then it is alice's turn.
sleep 2

# A hint asked while the server is stopped is lost with the connection
# when the server dies: ? once alice is connected again asks anew (it is
# not "being thought" for ever).
kill -STOP "$server_pid"
key alice "?"
shows alice "Asking the computer for a hint" 5 && ok "? with the server stopped: asked" ||
    bad "? with the server stopped: asked"
kill -KILL "$server_pid"
wait "$server_pid" 2>/dev/null
shows alice "offline" 20 && ok "the server killed: alice is offline" ||
    bad "the server killed: alice is offline"
"$barbu" serve --listen "127.0.0.1:$port" --db "$tmp/server.db" >"$tmp/serve2.out" 2>"$tmp/serve2.err" &
server_pid=$!
if shows alice "Connected as alice\." 40 && shows alice "South \(alice, you\)" 10; then
    ok "the server started again: alice is back at her table"
else
    bad "the server started again: alice is back at her table"
    cat "$tmp/screen" "$tmp/serve2.err"
fi
sleep 1
key alice "?"
if shows alice "Hint \(medium\): " 10; then
    ok "? at her turn: the message line says the hint"
    echo "     $(grep -o "Hint (medium): [^│|]*" "$tmp/screen" | head -n 1)"
else
    bad "? at her turn: the message line says the hint"
    cat "$tmp/screen"
fi
key alice "?"
if shows alice "a hint, at your turn" 5; then
    ok "? again shows the keys, which name the hint"
else
    bad "? again shows the keys, which name the hint"
    cat "$tmp/screen"
fi
key alice Escape
key alice q
key alice y
finished alice 10 && ok "alice quits" || bad "alice quits"
[ $fail -eq 0 ] && echo "connect_hint: all passed"
exit $fail
