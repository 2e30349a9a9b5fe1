#!/bin/sh
# barbu connect and registered players (issue 23), in tmux against a real
# barbu serve --admin root: zoe signs up with --register (the password asked
# twice on the terminal, not shown) and is told she is registered; a second
# device signs in with --password-file (and takes the session over: one
# session a name); a wrong password file stops with the server's reason; a
# client that only names zoe is asked her password by the server's
# "registered" and signs in once it is typed; carol, a guest, shows as
# "carol (guest)" in the lobby; root, named by --admin, signs up and is an
# administrator: sees carol's report as it comes, bans mallory ("/ban"), who
# is cut off, and "/modlog" lists the ban and the report, while carol's
# /ban is refused; root makes a ladder table with the form's Ladder field;
# "/logout all" on one device ends it and deletes its token, and another
# device's saved token no longer works (asked the password); /password
# changes the password (the old one then fails; --password asks the new one
# before the screen), and carol's /register
# registers her name.  A finished game of computer players shows its key,
# and its record saved from the table passes barbu verify.
# usage: connect_accounts.sh BARBU SOURCE_DIR
set -u
barbu=$1
. "$(dirname "$0")/connect_lib.sh"
deadline=$(($(date +%s) + 200))

# start NAME ARGS...: this test's start (instead of the library's), barbu
# connect ARGS in a terminal of its own, 130 by 36 (its state in
# $tmp/state); exit status to $tmp/NAME.rc, stdout and stderr after the
# screen to $tmp/NAME.out and $tmp/NAME.err.
start() {
    name=$1
    shift
    rm -f "$tmp/$name.rc"
    T new-session -d -s "$name" -x 130 -y 36 \
        "cd '$tmp' && XDG_STATE_HOME='$tmp/state' timeout --foreground 150 '$barbu' connect $* 2>'$tmp/$name.err'; echo \$? >'$tmp/$name.rc'; sleep 60"
}
# say NAME LINE: a line at the chat line (/ opens it).
say() {
    T send-keys -t "$1" /
    sleep 0.3
    T send-keys -t "$1" -l "$2"
    T send-keys -t "$1" Enter
}

serve_start --admin root
secret="correct horse battery"
printf '%s\n' "$secret" >"$tmp/zoe.pw"
printf 'wrong password!\n' >"$tmp/wrong.pw"
printf 'root password 1\n' >"$tmp/root.pw"

# ---------------------------------------------------------------- sign up
start zoe "$url" --name zoe --register
if shows zoe "A password to register for zoe" 10; then
    T send-keys -t zoe -l "$secret"
    T send-keys -t zoe Enter
    shows zoe "The same again" 5
    T send-keys -t zoe -l "$secret"
    T send-keys -t zoe Enter
    T capture-pane -p -t zoe >"$tmp/prompt.screen"
    if grep -q "$secret" "$tmp/prompt.screen"; then
        bad "the password does not show while it is typed"
    else
        ok "the password is asked twice before the screen and does not show"
    fi
else
    bad "--register asks for a password"
    cat "$tmp/screen"
fi
if shows zoe "Signed in as zoe, a registered player" 15; then
    ok "zoe signs up with --register and is told she is registered"
else
    bad "zoe signs up with --register and is told she is registered"
    cat "$tmp/screen" "$tmp/zoe.err"
fi
tokfile="$tmp/state/barbu/token-127.0.0.1-$port-zoe"
[ -s "$tokfile" ] && ok "her token is saved" || bad "her token is saved"
grep -rq "$secret" "$tmp/state" "$tmp/serve.err" "$tmp/server.db"* 2>/dev/null &&
    bad "the password is in a file" || ok "the password is in no token file, log or database file"

# ------------------------------------------------ sign in, password file
start phone "$url" --name zoe --token-file "'$tmp/phone.token'" --password-file "'$tmp/zoe.pw'"
if shows phone "Signed in as zoe, a registered player" 15; then
    ok "a second device signs in with --password-file"
else
    bad "a second device signs in with --password-file"
    cat "$tmp/screen" "$tmp/phone.err"
fi
shows zoe "Another connection took this session over" 10 &&
    ok "the first device hears the second took the session over" ||
    bad "the first device hears the second took the session over"
quit zoe
start wrong "$url" --name zoe --token-file "'$tmp/wrong.token'" --password-file "'$tmp/wrong.pw'"
if finished wrong 15 && [ "$(cat "$tmp/wrong.rc")" = 1 ] || { quit wrong && [ "$(cat "$tmp/wrong.rc")" = 1 ]; }; then
    grep -q "password is wrong" "$tmp/wrong.err" && ok "a wrong --password-file is refused with the server's reason (exit 1)" ||
        bad "a wrong --password-file is refused with the server's reason: $(cat "$tmp/wrong.err")"
else
    bad "a wrong --password-file stops the client"
    cat "$tmp/screen"
fi

# ------------------------------------------ the server says "registered"
start laptop "$url" --name zoe --token-file "'$tmp/laptop.token'"
if shows laptop "Password for zoe at" 15; then
    T send-keys -t laptop -l "$secret"
    T send-keys -t laptop Enter
    if shows laptop "Signed in as zoe, a registered player" 15; then
        ok "a name alone is asked its password when the server says it is registered, then signs in"
    else
        bad "after the password typed, the laptop signs in"
        cat "$tmp/screen"
    fi
else
    bad "a name alone is asked its password when the server says it is registered"
    cat "$tmp/screen" "$tmp/laptop.err"
fi

# ----------------------------------------------------------- guests, report
start carol "$url" --name carol
shows carol "Playing as carol, a guest" 10 && ok "carol is told she plays as a guest" ||
    bad "carol is told she plays as a guest"
T send-keys -t carol n
shows carol "A new table" 5 && T send-keys -t carol Enter
if shows laptop "carol \(guest\)" 10; then
    ok "the lobby shows carol's seat as \"carol (guest)\""
else
    bad "the lobby shows carol's seat as \"carol (guest)\""
    cat "$tmp/screen"
fi

# ------------------------------------------------------------ admin acts
start root "$url" --name root --register --password-file "'$tmp/root.pw'"
if shows root "Signed in as root, a registered player and an administrator" 15; then
    ok "root, named by --admin, signs up and is an administrator"
else
    bad "root, named by --admin, signs up and is an administrator"
    cat "$tmp/screen" "$tmp/root.err"
fi
start mallory "$url" --name mallory
shows mallory "Playing as mallory" 10
say carol "/report mallory keeps spamming the lobby"
shows carol "Report [0-9]+ sent" 10 && ok "carol's /report is sent" || { bad "carol's /report is sent"; cat "$tmp/screen"; }
shows root "New report [0-9]+.*carol.*mallory.*keeps spamming" 10 && ok "root sees carol's report as it comes" ||
    { bad "root sees carol's report as it comes"; cat "$tmp/screen"; }
say root "/ban mallory spam"
if shows root "Done: ban" 10 && shows mallory "banned" 10; then
    ok "root bans mallory with /ban, and mallory's client says she is banned"
else
    bad "root bans mallory with /ban, and mallory's client says she is banned"
    cat "$tmp/screen"
fi
say root "/modlog"
if shows root "act [0-9]+.*root: ban.*mallory: spam" 10 && grep -Eq "report [0-9]+.*carol" "$tmp/screen"; then
    ok "/modlog lists the ban and the report"
else
    bad "/modlog lists the ban and the report"
    cat "$tmp/screen"
fi
say carol "/ban zoe nothing"
shows carol "Only an administrator" 10 && ok "a guest's /ban is refused by the server" ||
    { bad "a guest's /ban is refused by the server"; cat "$tmp/screen"; }

# ------------------------------------------------------------ a ladder table
# root's form: Up from Rules goes round to Create, then Hints (issue 26's,
# the last field), then Ladder.
T send-keys -t root n
if shows root "A new table" 5; then
    T send-keys -t root Up
    T send-keys -t root Up
    T send-keys -t root Up
    T send-keys -t root Right
    shows root "Ladder +. yes . +registered players only" 5 && ok "the form's Ladder field says what it means" ||
        { bad "the form's Ladder field says what it means"; cat "$tmp/screen"; }
    T send-keys -t root Enter
fi
if shows root "ladder, commitment [0-9a-f]{16}" 10 && grep -q "whose hash is" "$tmp/screen"; then
    ok "at root's new ladder table the commitment to its deals shows from the start"
else
    bad "at root's new ladder table the commitment to its deals shows from the start"
    cat "$tmp/screen"
fi
if shows laptop "uk\+ladder" 10; then
    ok "root's ladder table shows as uk+ladder in the lobby"
else
    bad "root's ladder table shows as uk+ladder in the lobby"
    cat "$tmp/screen"
fi

# ------------------------------------------------------------- fair deals
# wendy makes a short game of four random computer players (uk-32 with
# house rules: No King only, four deals; no seed, so its deals come from a
# key), kibitzes it once it is over, sees the key, saves the record, and
# barbu verify checks the deals against the commitment.
printf 'preset = uk-32\nmandatory-doubles = 0\nno-tricks.per-player = 0\nno-hearts.per-player = 0\nno-queens.per-player = 0\nno-last-two.per-player = 0\ntrumps.per-player = 0\ndomino.per-player = 0\nno-king.card.all = 0\nno-king.rules = hearts-lead\n' >"$tmp/short.rules"
start wendy "$url" --name wendy
shows wendy "Playing as wendy" 10
T send-keys -t wendy n
if shows wendy "A new table" 5; then
    # uk-32 (seven presets on), no seat, random players, delay 0, the file.
    for _ in 1 2 3 4 5 6 7; do T send-keys -t wendy Right; done
    T send-keys -t wendy Down Down Right Right Down Down Right Right Down Down BSpace BSpace BSpace 0
    T send-keys -t wendy Down Down Down Down Down
    T send-keys -t wendy -l "$tmp/short.rules"
    shows wendy "House rules file +\[/" 5
    T send-keys -t wendy Enter
fi
ftable=
if shows wendy "Table [0-9]+ is created" 10; then
    ftable=$(sed -n 's/.*Table \([0-9][0-9]*\) is created.*/\1/p' "$tmp/screen" | head -n 1)
fi
if [ -n "$ftable" ] && shows wendy "^ +$ftable uk-32\+house +over" 30; then
    for _ in 1 2 3 4 5 6; do T send-keys -t wendy Down; done
    T send-keys -t wendy k
    sleep 0.3
    T send-keys -t wendy n
    if shows wendy "its key is" 10 && grep -Eq "key [0-9a-f]{20}" "$tmp/screen"; then
        ok "at the finished table the key shows, with how to check it"
    else
        bad "at the finished table the key shows, with how to check it"
        cat "$tmp/screen"
    fi
    T send-keys -t wendy Escape
    T send-keys -t wendy "!"
    shows wendy "Table menu" 5 && T send-keys -t wendy r
    if shows wendy "record of table $ftable is in" 10 && "$barbu" verify "$tmp/barbu-table-$ftable.txt" >"$tmp/verify.out" 2>&1; then
        ok "the saved record passes barbu verify: $(head -n 1 "$tmp/verify.out")"
    else
        bad "the saved record passes barbu verify"
        cat "$tmp/screen" "$tmp/verify.out"
    fi
else
    bad "wendy's short game of computer players is over"
    cat "$tmp/screen"
fi
quit wendy

# ------------------------------------------------------ sign out everywhere
quit phone
say laptop "/logout all"
if finished laptop 10 && [ "$(cat "$tmp/laptop.rc")" = 0 ]; then
    ok "/logout all ends the laptop's client (exit 0)"
else
    bad "/logout all ends the laptop's client"
    cat "$tmp/screen"
fi
[ ! -s "$tmp/laptop.token" ] && ok "its saved token is deleted" || bad "its saved token is deleted"
# The phone's saved token was signed out too: the server no longer takes
# it, and the name asks for its password again.
[ -s "$tmp/phone.token" ] || bad "the phone kept its token file"
start phone2 "$url" --name zoe --token-file "'$tmp/phone.token'"
if shows phone2 "Password for zoe at" 15; then
    ok "after /logout all the phone's saved token no longer works: the password is asked"
    T send-keys -t phone2 -l "$secret"
    T send-keys -t phone2 Enter
    shows phone2 "Signed in as zoe, a registered player" 15 && ok "and the password signs it in again" ||
        { bad "and the password signs it in again"; cat "$tmp/screen"; }
else
    bad "after /logout all the phone's saved token no longer works: the password is asked"
    cat "$tmp/screen"
fi

# ------------------------------------------------- /password, /register
# answer NAME TEXT: types a password at the question on NAME's terminal.
answer() {
    T send-keys -t "$1" -l "$2"
    T send-keys -t "$1" Enter
}
say phone2 "/password"
if shows phone2 "The password of zoe now" 5; then
    answer phone2 "$secret"
    shows phone2 "The new password for zoe" 5 && answer phone2 "a new secret 2"
    shows phone2 "The same again" 5 && answer phone2 "a new secret 2"
fi
if shows phone2 "The password of zoe is changed" 15; then
    ok "/password changes the password (asked: the old, the new twice)"
else
    bad "/password changes the password"
    cat "$tmp/screen"
fi
start zoe3 "$url" --name zoe --token-file "'$tmp/zoe3.token'" --password-file "'$tmp/zoe.pw'"
if { finished zoe3 15 || quit zoe3; } && grep -q "password is wrong" "$tmp/zoe3.err"; then
    ok "the old password no longer signs in"
else
    bad "the old password no longer signs in"
    cat "$tmp/screen" "$tmp/zoe3.err"
fi
# --password: the question before the screen; the new password works.
start tablet "$url" --name zoe --token-file "'$tmp/tablet.token'" --password
if shows tablet "Password for zoe at ws://" 10 && ! grep -q "barbu connect ·" "$tmp/screen"; then
    answer tablet "a new secret 2"
    if shows tablet "Signed in as zoe, a registered player" 15; then
        ok "--password asks before the screen opens, and the new password signs in"
    else
        bad "--password: the new password signs in"
        cat "$tmp/screen"
    fi
else
    bad "--password asks before the screen opens"
    cat "$tmp/screen"
fi
quit tablet
say carol "/register"
if shows carol "A password for carol" 5; then
    answer carol "carol's secret"
    shows carol "The same again" 5 && answer carol "carol's secret"
fi
if shows carol "carol is registered" 15 && grep -q "barbu connect table 1 " "$tmp/screen"; then
    ok "a guest's /register registers her name and keeps her at her table"
else
    bad "a guest's /register registers her name"
    cat "$tmp/screen"
fi

for s in phone2 carol root; do quit $s; done
kill "$server_pid"
wait "$server_pid"
rc=$?
server_pid=
[ $rc = 0 ] && ok "the server stops" || bad "the server stops (exit $rc)"
exit $fail
