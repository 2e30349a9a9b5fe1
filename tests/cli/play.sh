#!/bin/sh
# barbu play in a real terminal (tmux): every preset watched to its end with
# --watch --delay 0 and its record replayed; q stops a watched game; and a
# human, typing, sets Chinese Poker rows with the suggestion key, declares
# in King and plays a whole Fife game (Calls, Patience, cuts, Pass-ons).  Every wait has a deadline, so a broken screen fails
# the test instead of hanging it.
# usage: play.sh BARBU SOURCE_DIR
set -u
barbu=$1
if ! command -v tmux >/dev/null 2>&1; then
    echo "FAIL tmux is not installed: barbu play needs a terminal to be tested (scripts/setup.sh installs it)"
    exit 1
fi
tmp=$(mktemp -d)
# A tmux server of our own, whatever the user runs.
unset TMUX
T() { tmux -S "$tmp/tmux.sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# start NAME WIDTH HEIGHT ARGS...: barbu play ARGS in a new terminal; its exit
# status goes to $tmp/NAME.rc and its errors to $tmp/NAME.err.  timeout
# stops a game that never ends; --foreground keeps barbu in the terminal's
# foreground process group, where curses may read keys and set the modes.
start() {
    name=$1 width=$2 height=$3
    shift 3
    T new-session -d -s "$name" -x "$width" -y "$height" \
        "timeout --foreground 100 '$barbu' play $* 2>'$tmp/$name.err'; echo \$? >'$tmp/$name.rc'"
}

# finished NAME SECONDS: waits for the game to end, at most SECONDS from now
# and never past $deadline; false if it did not end.
finished() {
    until=$(($(date +%s) + $2))
    [ "$until" -gt "$deadline" ] && until=$deadline
    while [ ! -s "$tmp/$1.rc" ] && [ "$(date +%s)" -lt "$until" ]; do
        sleep 0.1
    done
    [ -s "$tmp/$1.rc" ]
}
# The whole script gives up on any game after this (three minutes).
deadline=$(($(date +%s) + 180))

# shows NAME PATTERN SECONDS: waits until the screen shows PATTERN (grep -E);
# the screen is then in $tmp/screen.
shows() {
    i=0
    while [ "$i" -lt $(($3 * 10)) ]; do
        T capture-pane -p -t "$1" >"$tmp/screen" 2>/dev/null || return 1
        grep -Eq "$2" "$tmp/screen" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# replays FILE: the record replays; prints replay's JSON.
replays() {
    "$barbu" replay --json "$1" 2>"$tmp/replay.err"
}

# The first declarer of a record, from its First tag.
first_of() {
    sed -n 's/^\[First "\([NESW]\)"\]$/\1/p' "$1"
}

# ---------------------------------------------------------------- watching
# Every preset, all at once (each in its own terminal): the game runs to
# its end through the screen code and leaves, and the record replays.  The
# players are easy ones, which are quick (the default, medium, searches).
presets=$("$barbu" rules --list | awk '{print $1}')
[ -n "$presets" ] || bad "barbu rules --list names the presets"
seed=11
for p in $presets; do
    start "watch-$p" 100 40 --watch --bots easy --delay 0 --rules "$p" --seed "$seed" --record "$tmp/watch-$p.txt"
done
for p in $presets; do
    if ! finished "watch-$p" 100; then
        bad "--watch --rules $p finishes the game"
        continue
    fi
    rc=$(cat "$tmp/watch-$p.rc")
    if [ "$rc" != 0 ]; then
        bad "--watch --rules $p exits 0 (exit $rc)"
        cat "$tmp/watch-$p.err"
        continue
    fi
    if replays "$tmp/watch-$p.txt" >"$tmp/watch-$p.json" && grep -q '"complete":true' "$tmp/watch-$p.json"; then
        ok "--watch --rules $p plays a whole game whose record replays"
    else
        bad "--watch --rules $p plays a whole game whose record replays"
        cat "$tmp/replay.err"
    fi
done

# q stops a watched game (the computer players wait for the answer), and
# the record of the deals so far replays.  The players are the default
# ones: medium.
start quit 80 24 --watch --delay 100 --rules uk --seed 3 --record "$tmp/quit.txt"
if shows quit "deal 1 of" 20; then
    T send-keys -t quit q
    shows quit "Quit\?" 10 && T send-keys -t quit y
fi
if finished quit 20 && [ "$(cat "$tmp/quit.rc")" = 0 ] && replays "$tmp/quit.txt" >"$tmp/quit.json" &&
    grep -q '"complete":false' "$tmp/quit.json"; then
    ok "q, y leaves a watched game with its record"
else
    bad "q, y leaves a watched game with its record"
fi
[ "$(grep -c '^\[\(North\|East\|South\|West\) "medium"\]$' "$tmp/quit.txt")" = 4 ] &&
    ok "the default computer players are medium ones" ||
    bad "the default computer players are medium ones"

# ----------------------------------------------------------- Chinese Poker
# The human declares (sitting where the seed's first declarer sits), so
# that the first deal is Chinese Poker: the suggestion key fills the rows,
# Enter sets them and the showdown follows.
seat=$(first_of "$tmp/watch-chinese.txt")
[ -n "$seat" ] || seat=S
start chinese 80 24 --rules chinese --seed "$seed" --seat "$seat" --bots easy --delay 0 --record "$tmp/chinese.txt"
step=fail
if shows chinese "Choose a contract" 20; then
    # Its number in the menu, whatever the order.
    key=$(sed -n 's/.* \([1-9]\)  Chinese Poker .*/\1/p' "$tmp/screen" | head -n 1)
    [ -n "$key" ] && T send-keys -t chinese "$key"
    # If the others double, the declarer's (no) redouble comes first.
    i=0
    while [ $i -lt 50 ] && shows chinese "set your 13 cards|Redoubling" 10; do
        grep -q "set your 13 cards" "$tmp/screen" && break
        T send-keys -t chinese Enter
        sleep 0.3
        i=$((i + 1))
    done
    if shows chinese "set your 13 cards" 10 && grep -q "13 cards to place" "$tmp/screen"; then
        T send-keys -t chinese g
        if shows chinese "Ready: Enter sets these rows" 20; then
            cp "$tmp/screen" "$tmp/arrange.screen"
            T send-keys -t chinese Enter
            # The box may be caught half drawn: wait for its points too.
            shows chinese "Deal 1 of [0-9]+: Chinese Poker" 20 && shows chinese "points" 10 &&
                grep -Eq "Deal 1 of [0-9]+: Chinese Poker" "$tmp/screen" &&
                grep -q "middle" "$tmp/screen" && step=showdown
        fi
    fi
fi
if [ "$step" = showdown ]; then
    ok "a human sets Chinese Poker rows with the suggestion and sees the showdown"
else
    bad "a human sets Chinese Poker rows with the suggestion and sees the showdown"
    cat "$tmp/screen"
fi
T send-keys -t chinese q
shows chinese "Quit\?" 10 && T send-keys -t chinese y
if finished chinese 20 && [ "$(cat "$tmp/chinese.rc")" = 0 ] && replays "$tmp/chinese.txt" >"$tmp/chinese.json" &&
    grep -q '"contract":"chinese"' "$tmp/chinese.json" &&
    sed -n '/^\[Rows\]/,/^\[Score/p' "$tmp/chinese.txt" | grep -q "^$seat: .* / .* / "; then
    ok "the human's rows are in the record, which replays"
else
    bad "the human's rows are in the record, which replays"
fi

# -------------------------------------------------------------------- King
# The human declares the first deal, plays (Enter plays a legal card) up to
# the next declaration, where the menu says why No King... is no longer
# offered, and declares Trumps in spades there.
seat=$(first_of "$tmp/watch-king.txt")
[ -n "$seat" ] || seat=S
start king 80 24 --rules king --seed "$seed" --seat "$seat" --bots easy --delay 0 --record "$tmp/king.txt"
step=fail
# The menu is drawn a row at a time: wait for the row itself, not just the
# title, or a busy machine captures it half drawn.
if shows king "Choose a contract: your deal 1 of 5" 20 && shows king "Trumps .* yours 2 of 2 left" 10; then
    step=menu
    T send-keys -t king 1
    i=0
    while [ $i -lt 400 ]; do
        T capture-pane -p -t king >"$tmp/screen" 2>/dev/null || break
        grep -q "your deal 2 of 5" "$tmp/screen" && break
        # One Enter at a time: wait until it shows, and a little more for
        # the screen to settle, so that no Enter lands on the next menu.
        cp "$tmp/screen" "$tmp/before"
        T send-keys -t king Enter
        j=0
        while [ $j -lt 100 ] && cmp -s "$tmp/screen" "$tmp/before"; do
            sleep 0.02
            T capture-pane -p -t king >"$tmp/screen" 2>/dev/null || break
            j=$((j + 1))
        done
        sleep 0.1
        i=$((i + 1))
    done
    if grep -q "your deal 2 of 5" "$tmp/screen" && grep -q "Not offered:" "$tmp/screen" &&
        grep -q "has already been chosen" "$tmp/screen"; then
        cp "$tmp/screen" "$tmp/king.screen"
        key=$(sed -n 's/.* \([1-9]\)  Trumps .*/\1/p' "$tmp/screen" | head -n 1)
        [ -n "$key" ] && T send-keys -t king "$key"
        shows king "the trump suit" 10 && T send-keys -t king s
        shows king "Trumps .+, declared by [A-Za-z]+ \(you\)" 10 && step=declared
    fi
fi
if [ "$step" = declared ]; then
    ok "a human declares in King; the menu says why a contract is not offered"
else
    bad "a human declares in King; the menu says why a contract is not offered (reached: $step)"
    cat "$tmp/screen"
fi
T send-keys -t king q
shows king "Quit\?" 10 && T send-keys -t king y
# The contracts the human's seat declared, in order.
declared=$(awk -v seat="$seat" '/^\[Declarer /{mine = $2 == "\"" seat "\"]"}
    mine && /^\[Contract /{sub(/^\[Contract "/, ""); sub(/"\]$/, ""); printf "%s;", $0}' "$tmp/king.txt")
if finished king 20 && [ "$(cat "$tmp/king.rc")" = 0 ] && replays "$tmp/king.txt" >/dev/null &&
    [ "${declared#*;}" = "trumps S;" ]; then
    ok "the human's King declaration is in the record, which replays"
else
    bad "the human's King declaration is in the record, which replays"
fi

# -------------------------------------------------------------------- Fife
# A human plays a whole Fife game against random players (seed 5, sitting
# where the first Caller sits): in the first Player Round the Call menu
# refuses a Patience mixed with Aces and, on the fourth deal, a Single
# Patience under the rule of two Doubles or a Treble, each with the
# engine's reason; Aces + Queens are called as a Double; a group of cards
# goes out at Patience ('g' picks it); in the Silly Round the human cuts
# ('c') and passes 3 cards on.  Every other turn is Enter (the card under
# the cursor, or a chap) or the first Call the menu offers.  The game ends
# on the score sheet and its record replays.
fseed=5
"$barbu" selfplay --rules fife --seed $fseed --games 1 --bots random --records "$tmp/fife-first" >/dev/null 2>&1
seat=$(first_of "$tmp/fife-first/game-$fseed.txt")
[ -n "$seat" ] || seat=S
start fife 80 24 --rules fife --seed $fseed --seat "$seat" --bots random --delay 0 --record "$tmp/fife.txt"
seen=""
note() { case " $seen " in *" $1 "*) ;; *) seen="$seen $1" ;; esac; }
# key KEYS...: sends keys, then waits for the screen to change (1 s at most).
key() {
    T capture-pane -p -t fife >"$tmp/before" 2>/dev/null
    T send-keys -t fife "$@"
    j=0
    while [ $j -lt 50 ]; do
        sleep 0.02
        T capture-pane -p -t fife >"$tmp/screen" 2>/dev/null || return 0
        cmp -s "$tmp/screen" "$tmp/before" || return 0
        j=$((j + 1))
    done
}
calls=0
while [ "$(date +%s)" -lt "$deadline" ] && [ ! -s "$tmp/fife.rc" ]; do
    T capture-pane -p -t fife >"$tmp/screen" 2>/dev/null || break
    status=$(sed -n 22p "$tmp/screen")
    if grep -q "Game over: the score sheet" "$tmp/screen"; then
        grep -q "Set Total" "$tmp/screen" && grep -q "Set Position" "$tmp/screen" && note sheet
        cp "$tmp/screen" "$tmp/fife-sheet.screen"
        key Enter
        continue
    fi
    if grep -q "Press any key" "$tmp/screen"; then
        grep -q "The draw for the first Caller" "$tmp/screen" && note draw
        key Enter
        continue
    fi
    case "$status" in
    *"Your Call:"*)
        calls=$((calls + 1))
        if [ $calls = 1 ]; then
            key 1
            key 6
            grep -q "Refused: Aces + Single Patience: negative Calls combine only" "$tmp/screen" && note mixture
            key 6
            key 3
            grep -q "Your Call: Double: Aces + Queens" "$tmp/screen" && note live
            key Enter
            grep -q "Double: Aces + Queens, called by [A-Za-z]* (you)" "$tmp/screen" && note double
        elif [ $calls -le 3 ]; then
            key $((calls * 2 - 2))
            key Enter
        elif [ $calls = 4 ]; then
            grep -q "Refused: Single Patience: the Round's seven Calls must include" "$tmp/screen" &&
                note rule && cp "$tmp/screen" "$tmp/fife-menu.screen"
            key 7
            key Enter
        else
            key Down
            key Enter
        fi
        ;;
    *"press c"*)
        key c
        grep -q "You cut " "$tmp/screen" && note cut
        ;;
    *"Pass 3 cards"*)
        key Space
        key Right
        key Space
        key Right
        key Space
        grep -q "Ready: Enter passes .* to [A-Z]" "$tmp/screen" && note ticked && cp "$tmp/screen" "$tmp/fife-pass.screen"
        key Enter
        ;;
    *"Your turn: a card"*)
        if grep -q "Together (g picks)" "$tmp/screen" && grep -q "Player Round" "$tmp/screen"; then
            key g
            grep -q "Enter plays them together" "$tmp/screen" && cp "$tmp/screen" "$tmp/fife-group.screen"
            key Enter
            grep -q "You play .* and are out" "$tmp/screen" && note group
        else
            key Enter
        fi
        ;;
    *"Your turn"* | *"Your lead"* | *"No card fits"*)
        key Enter
        ;;
    *)
        sleep 0.02
        ;;
    esac
    grep -q "Pass-on [0-9] (.*): you gave .* got .* from" "$tmp/screen" && note received
done
has() { case " $seen " in *" $1 "*) return 0 ;; esac; return 1; }
if has draw && has mixture && has live && has double && has rule; then
    ok "a human Fife Caller ticks Calls, sees the engine refuse a mixture and the Calls rule, calls a Double"
else
    bad "a human Fife Caller ticks Calls, sees the engine refuse a mixture and the Calls rule, calls a Double (seen:$seen)"
fi
if has group; then
    ok "a human goes out at Patience with several cards together (g, Enter)"
else
    bad "a human goes out at Patience with several cards together (seen:$seen)"
fi
if has cut && has ticked && has received; then
    ok "a human cuts in the Silly Round and passes 3 cards on"
else
    bad "a human cuts in the Silly Round and passes 3 cards on (seen:$seen)"
fi
if finished fife 20 && [ "$(cat "$tmp/fife.rc")" = 0 ] && has sheet && replays "$tmp/fife.txt" >"$tmp/fife.json" &&
    grep -q '"complete":true' "$tmp/fife.json"; then
    ok "the human's Fife game ends on its score sheet, and its record replays"
else
    bad "the human's Fife game ends on its score sheet, and its record replays (seen:$seen)"
    cat "$tmp/replay.err" "$tmp/fife.err" 2>/dev/null
    cat "$tmp/screen"
fi

exit $fail
