#!/bin/sh
# The barbu program as a user runs it: help, rules files, selfplay, replay
# and bench, with their errors.
# usage: run.sh BARBU SOURCE_DIR
set -u
barbu=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
expect_status() { # expect_status WANT DESCRIPTION CMD...
    want=$1; what=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
    if [ "$got" = "$want" ]; then ok "$what"; else bad "$what (exit $got, want $want)"; cat "$tmp/err"; fi
}

# Help for the program and for every command.
expect_status 0 "barbu --help" "$barbu" --help
for cmd in play selfplay replay bench rules; do
    expect_status 0 "barbu $cmd --help" "$barbu" "$cmd" --help
    grep -q "usage: barbu $cmd" "$tmp/out" || bad "barbu $cmd --help prints its usage"
done
expect_status 2 "an unknown command is a usage error" "$barbu" frobnicate
expect_status 2 "an unknown option is a usage error" "$barbu" selfplay --frob
expect_status 0 "barbu --version" "$barbu" --version

# The kinds of computer player: the levels offered (easy, medium, hard), random
# and heuristic (easy's old name); omniscient is no player for a game.
expect_status 0 "barbu play --help" "$barbu" play --help
grep -q "random, easy, medium, hard or" "$tmp/out" && grep -q "default medium" "$tmp/out" &&
    ok "play --help lists the levels, medium the default" || bad "play --help lists the levels, medium the default"
expect_status 2 "play --bots omniscient is a usage error" "$barbu" play --bots omniscient
grep -q "(random, easy, medium, hard, heuristic)" "$tmp/err" && ok "the error lists the kinds" ||
    { bad "the error lists the kinds"; cat "$tmp/err"; }
expect_status 2 "selfplay --bots omniscient is a usage error" "$barbu" selfplay --bots omniscient
grep -q "of random, easy, medium, hard, heuristic;" "$tmp/err" && ok "the error lists the kinds" ||
    { bad "the error lists the kinds"; cat "$tmp/err"; }
"$barbu" selfplay --seed 5 --bots easy --json >"$tmp/easy.json" &&
    "$barbu" selfplay --seed 5 --bots heuristic --json | sed 's/"heuristic"/"easy"/g' | cmp -s - "$tmp/easy.json" &&
    ok "easy and heuristic are the same player" || bad "easy and heuristic are the same player"

# Rules files: a preset printed in full reads back to itself.
"$barbu" rules uk >"$tmp/uk.rules" && "$barbu" rules "$tmp/uk.rules" >"$tmp/uk2.rules" &&
    cmp -s "$tmp/uk.rules" "$tmp/uk2.rules" && ok "barbu rules round-trips" || bad "barbu rules round-trips"
"$barbu" rules classic | grep -q "^rotation = in-a-row" && ok "classic keeps each declarer's deals in a row" ||
    bad "classic keeps each declarer's deals in a row"
printf 'preset = classic\nisraeli = advise\n' >"$tmp/house.rules"
[ "$("$barbu" rules "$tmp/house.rules" --changes)" = "$(printf 'preset = classic\nisraeli = advise')" ] &&
    ok "--changes prints only what differs from the preset" || bad "--changes prints only what differs from the preset"
printf 'preset = uk\nisraeli = sometimes\n' >"$tmp/bad.rules"
expect_status 1 "a bad value is refused" "$barbu" rules "$tmp/bad.rules"
grep -q "bad.rules:2: israeli must be one of off, advise, enforce" "$tmp/err" && ok "the error names the line" ||
    { bad "the error names the line"; cat "$tmp/err"; }
printf 'preset = uk\ntrumps.per-trick = 6\n' >"$tmp/sum.rules"
expect_status 1 "a table that no longer sums to zero is refused" "$barbu" rules "$tmp/sum.rules"
grep -q "sum.rules:2: .*sum to zero" "$tmp/err" && ok "the zero-sum error names the line" || bad "the zero-sum error names the line"
printf 'preset = uk\ncolour = blue\n' >"$tmp/key.rules"
expect_status 1 "an unknown key is refused" "$barbu" rules "$tmp/key.rules"
# The rules page: every preset, the house rules of a file, no script.
"$barbu" rules --help | grep -q -- "--html" && ok "barbu rules --help mentions --html" ||
    bad "barbu rules --help mentions --html"
for preset in $("$barbu" rules --list | cut -d' ' -f1); do
    "$barbu" rules --html "$preset" >"$tmp/page.html" 2>"$tmp/err" &&
        head -c 15 "$tmp/page.html" | grep -q '<!doctype html>' &&
        grep -q 'id="doubling"' "$tmp/page.html" && ! grep -q '<script' "$tmp/page.html" &&
        ok "barbu rules --html $preset" || bad "barbu rules --html $preset"
done
"$barbu" rules --html uk | grep -q 'NT: No Tricks' && ok "the uk page spells out NT" ||
    bad "the uk page spells out NT"
"$barbu" rules --html fife | grep -q 'id="combinations"' && ok "the fife page has its combinations" ||
    bad "the fife page has its combinations"
"$barbu" rules --html "$tmp/house.rules" >"$tmp/house.html" &&
    grep -q 'id="house-rules"' "$tmp/house.html" && grep -q 'israeli = advise' "$tmp/house.html" &&
    grep -q 'Israeli rule.*advise' "$tmp/house.html" && ok "a rules file's page shows its house rules" ||
    bad "a rules file's page shows its house rules"
expect_status 1 "barbu rules --html of an unknown preset fails" "$barbu" rules --html nope

# Selfplay: one JSON line per game, the same for the same seed, each game zero-sum.
"$barbu" selfplay --seed 42 --games 3 --json >"$tmp/a.json" 2>"$tmp/err" || bad "selfplay runs"
"$barbu" selfplay --seed 42 --games 3 --json >"$tmp/b.json" || bad "selfplay runs again"
[ "$(wc -l <"$tmp/a.json")" -eq 3 ] && ok "selfplay prints a line per game" || bad "selfplay prints a line per game"
cmp -s "$tmp/a.json" "$tmp/b.json" && ok "selfplay is reproducible" || bad "selfplay is reproducible"
while IFS= read -r line; do
    totals=$(printf '%s' "$line" | sed 's/.*"totals":\[\([-0-9,]*\)\].*/\1/')
    sum=$(printf '%s' "$totals" | tr ',' '\n' | awk '{s += $1} END {print s}')
    [ "$sum" = 0 ] || bad "a selfplay game sums to $sum"
    deals=$(printf '%s' "$line" | grep -o '"deal":' | wc -l)
    [ "$deals" -eq 28 ] || bad "a selfplay game has $deals deals"
done <"$tmp/a.json"
ok "selfplay games sum to zero over 28 deals"

# A record written by selfplay replays to the same totals.
mkdir -p "$tmp/rec"
"$barbu" selfplay --seed 7 --bots random --json --records "$tmp/rec" >"$tmp/s.json"
"$barbu" replay --json "$tmp/rec/game-7.txt" >"$tmp/r.json" || bad "replay of a selfplay record"
want=$(sed 's/.*"totals":\(\[[-0-9,]*\]\).*/\1/' "$tmp/s.json")
got=$(sed 's/.*"totals":\(\[[-0-9,]*\]\).*/\1/' "$tmp/r.json")
[ "$want" = "$got" ] && ok "replay gives selfplay's totals" || bad "replay gives selfplay's totals ($got, want $want)"
"$barbu" replay "$tmp/rec/game-7.txt" >"$tmp/sheet" && grep -q "total" "$tmp/sheet" &&
    ok "replay prints a score sheet" || bad "replay prints a score sheet"
expect_status 1 "replay of a missing file fails" "$barbu" replay "$tmp/nothing.txt"
expect_status 2 "replay without a file is a usage error" "$barbu" replay

# Bench: the figures and a signature that does not depend on the clock.
"$barbu" bench --seconds 0.05 --json >"$tmp/b1" && "$barbu" bench --seconds 0.05 --json >"$tmp/b2" ||
    bad "bench runs"
s1=$(sed 's/.*"signature":"\([0-9a-f]*\)".*/\1/' "$tmp/b1")
s2=$(sed 's/.*"signature":"\([0-9a-f]*\)".*/\1/' "$tmp/b2")
[ -n "$s1" ] && [ "$s1" = "$s2" ] && ok "bench signature is stable ($s1)" || bad "bench signature is stable"
grep -q '"no-tricks":[0-9]' "$tmp/b1" && ok "bench measures No Tricks playouts" || bad "bench measures No Tricks playouts"
grep -q '"played_deals_per_second":[1-9]' "$tmp/b1" && ok "bench measures deals dealt and played out" ||
    bad "bench measures deals dealt and played out"
# Bench of the solver and of the computer players' decision times.
"$barbu" bench --solver --positions 5 --json >"$tmp/b3" && grep -q '"trumps":{"positions":5' "$tmp/b3" &&
    ok "bench --solver times the solver by contract" || { bad "bench --solver times the solver by contract"; cat "$tmp/b3"; }
"$barbu" bench --solver --maxn --cards 4 --positions 5 --json >"$tmp/b5" &&
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(not (j['search']=='maxn' and j['cards']==4 and j['contracts']['no-queens']['positions']==5))" "$tmp/b5" &&
    ok "bench --solver --maxn times the max^n search" || { bad "bench --solver --maxn times the max^n search"; cat "$tmp/b5"; }
expect_status 2 "bench --maxn without --solver is a usage error" "$barbu" bench --maxn
"$barbu" bench --bots easy --games 1 --json >"$tmp/b4" &&
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); p=j['phases']; sys.exit(not (j['bots']=='easy' and p['play']['decisions'] > 1000 and p['declare']['decisions'] == 28 and p['play']['ms_max'] >= p['play']['ms_p50']))" "$tmp/b4" &&
    ok "bench --bots times every decision of a game by phase" || { bad "bench --bots times every decision of a game by phase"; cat "$tmp/b4"; }
expect_status 2 "bench --bots with an unknown player is a usage error" "$barbu" bench --bots wizard

# Play needs a terminal and says so.
"$barbu" play --seed 1 </dev/null >"$tmp/out" 2>"$tmp/err"
[ $? -ne 0 ] && [ -s "$tmp/err" ] && ok "play without a terminal explains itself" || bad "play without a terminal explains itself"
exit $fail
