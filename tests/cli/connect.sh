#!/bin/sh
# barbu connect in a real terminal (tmux) against a real barbu serve: alice
# creates a table with three computer players (no delay) from the lobby's
# form, sits South and plays a whole deal by keys (the contract menu, the
# doubling prompt, her cards), and sees the result and the totals change.
# Then the client is killed (kill -9) and started again: its saved token
# takes her back to the same seat of the same game.  She chats a line,
# opens the server's score window, saves the record; bob, in the lobby,
# sees her table and kibitzes it; then both quit and the server stops.
# Every wait has a deadline, so a broken screen fails the test instead of
# hanging it.
# usage: connect.sh BARBU SOURCE_DIR
set -u
barbu=$1
. "$(dirname "$0")/connect_lib.sh"
# The whole script gives up after this (four minutes).
deadline=$(($(date +%s) + 240))

# ------------------------------------------------------------------ server
serve_start

# ------------------------------------------------------------------- lobby
start alice 120 40 "$url" --name alice
if shows alice "barbu connect .* alice .*connected" 10 && grep -q "No tables yet" "$tmp/screen"; then
    ok "alice connects and sees the empty lobby"
else
    bad "alice connects and sees the empty lobby"
    cat "$tmp/screen" "$tmp/alice.err"
fi
[ -f "$tmp/state/barbu/token-127.0.0.1-$port-alice" ] &&
    [ "$(stat -c %a "$tmp/state/barbu/token-127.0.0.1-$port-alice")" = 600 ] &&
    ok "the session's token is saved, mode 0600" || bad "the session's token is saved, mode 0600"

# The form: uk, seed 12, South, computer players in the empty seats, of
# level easy (medium, the default, then Right through hard, random and
# round to easy), delay 0, a household's table (bob kibitzes below from
# alice's address, 127.0.0.1).
key alice n
if shows alice "A new table" 5; then
    grep -Eq "Their level .*medium .*searches" "$tmp/screen" &&
        ok "the form offers medium computer players by default" ||
        bad "the form offers medium computer players by default"
    key alice Down
    key alice 1 2
    key alice Down Down Down
    levels=
    for _ in 1 2 3; do
        key alice Right
        levels="$levels $(sed -n 's/.*Their level .* \([a-z][a-z]*\) [>▸].*/\1/p' "$tmp/screen" | head -n 1)"
    done
    [ "$levels" = " hard random easy" ] && ok "the level cycles through hard, random and easy" ||
        bad "the level cycles through hard, random and easy (saw:$levels)"
    key alice Down Down
    key alice BSpace BSpace BSpace 0
    key alice Down Down Down
    key alice Right
    grep -Eq "Household .*yes" "$tmp/screen" && ok "the form makes a household's table" ||
        bad "the form makes a household's table"
    cp "$tmp/screen" "$tmp/form.screen"
    key alice Enter
fi
if shows alice "South \(alice, you\)" 10 && grep -q "Table [0-9]* " "$tmp/screen"; then
    ok "the form creates a table with three computer players and seats alice South"
else
    bad "the form creates a table with three computer players and seats alice South"
    cat "$tmp/form.screen" "$tmp/screen"
fi
table=$(sed -n 's/.*barbu connect table \([0-9]*\) .*/\1/p' "$tmp/screen" | head -n 1)
grep -Eq "(10|[2-9JQKA])([SHDC]|♠|♥|♦|♣) +(10|[2-9JQKA])([SHDC]|♠|♥|♦|♣)" "$tmp/screen" &&
    ok "her hand shows" || bad "her hand shows"
[ "$(grep -c "computer" "$tmp/screen")" -ge 3 ] && ok "the panel lists the three computer players" ||
    bad "the panel lists the three computer players"
[ "$(grep -Ec "easy bot [NESW]" "$tmp/screen")" -ge 3 ] && ok "they are easy computer players" ||
    bad "they are easy computer players"
grep -q "knows the deals" "$tmp/screen" && ok "alice, who chose the seed, is marked as knowing the deals" ||
    bad "alice, who chose the seed, is marked as knowing the deals"

# -------------------------------------------------------------- the deals
# Every turn of hers by keys: the first contract the menu offers (and the
# first trump suit or start rank), m + Enter when doubling (max: never
# short of a compulsory double), Enter on a card (the cursor starts on a
# legal one).  A deal is over when its result shows; she plays on until
# she has declared once and a deal is over (at most five deals).
played=0 declared=0 bid=0 deals=0
while [ "$(date +%s)" -lt "$deadline" ] && { [ $deals = 0 ] || [ $declared = 0 ]; } && [ $deals -lt 5 ]; do
    T capture-pane -p -t alice >"$tmp/screen" 2>/dev/null || break
    if grep -q "Press any key to go on" "$tmp/screen"; then
        deals=$((deals + 1))
        [ $deals = 1 ] && cp "$tmp/screen" "$tmp/result.screen"
        # The result closes, unless it is the last one looked at.
        if [ $declared = 0 ] && [ $deals -lt 5 ]; then
            key alice Enter
        fi
    elif grep -q "Choose a contract" "$tmp/screen"; then
        declared=1
        cp "$tmp/screen" "$tmp/menu.screen"
        key alice 1
    elif grep -Eq "the trump suit|the start rank" "$tmp/screen"; then
        key alice Enter
    elif grep -q "0 none  m max" "$tmp/screen"; then
        bid=$((bid + 1))
        key alice m
        key alice Enter
    elif grep -Eq "Your lead|Your turn|to pass" "$tmp/screen"; then
        played=$((played + 1))
        key alice Enter
    else
        sleep 0.1
    fi
done
if [ $deals -ge 1 ] && grep -q "Deal 1 of 28" "$tmp/result.screen" &&
    grep -Eq "South \(alice.*[-+][0-9]+ +[-+][0-9]+ +[-+][0-9]+" "$tmp/result.screen"; then
    ok "alice plays a whole deal by keys and sees its result ($played turns at cards, $bid at doubling)"
else
    bad "alice plays a whole deal by keys and sees its result (reached: $played cards, $deals deals)"
    cat "$tmp/screen"
fi
if [ $declared = 1 ] && grep -q "your deal 1 of 7" "$tmp/menu.screen"; then
    ok "she chooses a contract from the menu"
else
    bad "she chooses a contract from the menu"
fi
key alice Enter
next=$((deals + 1))
if shows alice "deal $next of 28" 10 && grep -Eq "total [-+][1-9]" "$tmp/screen"; then
    ok "deal $next starts and the totals have changed"
else
    bad "deal $next starts and the totals have changed"
    cat "$tmp/screen"
fi
totals_before=$(grep -o "total [-+][0-9]*" "$tmp/screen" | tr '\n' ' ')

# ---------------------------------------------------------- crash, resume
kill -9 "$(cat "$tmp/alice.pid")"
finished alice 10
T kill-session -t alice 2>/dev/null
start alice2 120 40 "$url" --name alice
if shows alice2 "South \(alice, you\)" 15 && grep -q "barbu connect table $table " "$tmp/screen" &&
    grep -q "deal $next of 28" "$tmp/screen"; then
    ok "started again, the saved token takes alice back to her seat at table $table, deal $next"
else
    bad "started again, the saved token takes alice back to her seat at table $table, deal $next"
    cat "$tmp/screen"
fi
totals_after=$(grep -o "total [-+][0-9]*" "$tmp/screen" | tr '\n' ' ')
[ "$totals_before" = "$totals_after" ] && ok "the same game: the totals are as they were ($totals_after)" ||
    bad "the same game: the totals are as they were ($totals_before / $totals_after)"

# ------------------------------------------------------------------- chat
key alice2 /
T send-keys -t alice2 -l "hello from the terminal"
key alice2 Enter
if shows alice2 "alice: hello from the terminal" 10; then
    ok "a chat line goes to the table and shows in the panel"
else
    bad "a chat line goes to the table and shows in the panel"
    cat "$tmp/screen"
fi

# ---------------------------------------------------------- score, record
key alice2 "!"
shows alice2 "Table menu" 5 && key alice2 s
if shows alice2 "Score \(from the server\)" 10 && grep -Eq "^ *│? *1 +[NESW] " "$tmp/screen" &&
    grep -Eq "total +[-+][0-9]+ +[-+][0-9]+" "$tmp/screen"; then
    ok "the score window shows the first deal and the totals"
else
    bad "the score window shows the first deal and the totals"
    cat "$tmp/screen"
fi
key alice2 Escape
key alice2 "!"
shows alice2 "Table menu" 5 && key alice2 r
if shows alice2 "record of table $table is in" 10 && [ -s "$tmp/barbu-table-$table.txt" ] &&
    grep -q '^\[Seed "withheld"\]' "$tmp/barbu-table-$table.txt"; then
    ok "the record is saved in the working directory (seed withheld while the game runs)"
else
    bad "the record is saved in the working directory (seed withheld while the game runs)"
    cat "$tmp/screen"
fi

# ---------------------------------------------------------------- kibitz
start bob 110 30 "$url" --name bob
if shows bob "\*$table +uk .*alice" 10; then
    grep -q "seed chosen by alice, who knows every deal" "$tmp/screen" &&
        ok "the lobby tells bob that alice chose the seed" ||
        bad "the lobby tells bob that alice chose the seed"
    key bob k
    key bob n
    if shows bob "barbu kibitz table $table" 10 && grep -q "kibitzing North" "$tmp/screen"; then
        ok "bob sees alice's table in the lobby and kibitzes North's hand"
    else
        bad "bob sees alice's table in the lobby and kibitzes North's hand"
        cat "$tmp/screen"
    fi
else
    bad "bob sees alice's table in the lobby"
    cat "$tmp/screen"
fi
shows alice2 "kibitzing: bob" 10 && ok "alice's panel lists bob as a kibitzer" ||
    bad "alice's panel lists bob as a kibitzer"
# During the game a kibitzer's line reaches the kibitzers only.
key bob /
T send-keys -t bob -l "psst"
key bob Enter
if shows bob "\[kibitzers\] bob: psst" 10 && sleep 1 &&
    T capture-pane -p -t alice2 >"$tmp/screen" && ! grep -q "psst" "$tmp/screen"; then
    ok "bob's line shows as the kibitzers' and not at alice's"
else
    bad "bob's line shows as the kibitzers' and not at alice's"
    cat "$tmp/screen"
fi

# ------------------------------------------------------------------- quit
key bob q
shows bob "Quit\?" 5 && key bob y
key alice2 q
shows alice2 "Quit\?" 5 && key alice2 y
if finished alice2 10 && [ "$(cat "$tmp/alice2.rc")" = 0 ] && finished bob 10 &&
    [ "$(cat "$tmp/bob.rc")" = 0 ]; then
    ok "q, y quits both clients"
else
    bad "q, y quits both clients"
    cat "$tmp/alice2.err" "$tmp/bob.err" 2>/dev/null
fi

kill "$server_pid"
wait "$server_pid"
rc=$?
server_pid=
[ $rc = 0 ] && ok "the server stops" || bad "the server stops (exit $rc)"
exit $fail
