#!/bin/sh
# barbu scoresheet as a user runs it: the Fife game's score sheet of a record
# in the terminal and as a page, the page checked for anything it would fetch,
# for its pictures, and rendered by headless Chromium to a screenshot that is
# kept in OUT_DIR (scoresheet.png, beside scoresheet.html) for people to see.
# Chromium is required: without it the test fails, it never skips.
# usage: scoresheet.sh BARBU SOURCE_DIR OUT_DIR
set -u
barbu=$1
src=$2
out=$3
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

# Help and usage errors.
expect_status 0 "barbu scoresheet --help" "$barbu" scoresheet --help
grep -q "usage: barbu scoresheet" "$tmp/out" || bad "--help prints the usage"
expect_status 2 "a record is required" "$barbu" scoresheet
expect_status 2 "an unknown option is a usage error" "$barbu" scoresheet --frob x.txt
expect_status 2 "--names needs four names" "$barbu" scoresheet --names A,B,C x.txt
expect_status 2 "--names refuses an empty name" "$barbu" scoresheet --names A,,C,D x.txt
expect_status 2 "--html needs a file" "$barbu" scoresheet x.txt --html

# Records it refuses: missing, malformed (with the line), not a Fife game.
expect_status 1 "a missing record fails" "$barbu" scoresheet "$tmp/nothing.txt"
printf '%% barbu game record\n[Barbu "1"]\n[Rules "fife"]\n[Seed "x"]\n' >"$tmp/bad.txt"
expect_status 1 "a malformed record fails" "$barbu" scoresheet "$tmp/bad.txt"
grep -q "bad.txt:4: " "$tmp/err" && ok "the error names the line" || { bad "the error names the line"; cat "$tmp/err"; }
mkdir -p "$tmp/uk"
"$barbu" selfplay --seed 5 --games 1 --bots random --records "$tmp/uk" >/dev/null
expect_status 1 "a game of other rules is refused" "$barbu" scoresheet "$tmp/uk/game-5.txt"
grep -q "not the Fife game" "$tmp/err" && ok "it says the record is not a Fife game" ||
    { bad "it says the record is not a Fife game"; cat "$tmp/err"; }

# A whole Fife game of two Sets played by the computer players (a seed whose
# sheet has many marks): its sheet in the terminal.
mkdir -p "$tmp/fife"
printf 'preset = fife\nsets = 2\n' >"$tmp/fife.rules"
"$barbu" selfplay --rules "$tmp/fife.rules" --seed 6 --games 1 --json --records "$tmp/fife" \
    >"$tmp/game.json" || bad "selfplay plays a Fife game"
record="$tmp/fife/game-6.txt"
[ -s "$record" ] || { bad "selfplay writes the Fife game's record"; echo "scoresheet: FAILED"; exit 1; }
expect_status 0 "scoresheet of a Fife game" \
    "$barbu" scoresheet --names Hero,Buoy,Lief,Fringe --html "$out/scoresheet.html" "$record"
cp "$tmp/out" "$tmp/sheet.txt"
for line in "Set 1" "Set 2" "P. Round 1" "P. Round 4" "S. Round" "Running total" "Set Total" \
    "Set Position" "Overall Running Scores"; do
    grep -q "^ *$line" "$tmp/sheet.txt" || bad "the sheet has '$line'"
done
ok "the sheet has its Sets, Rounds and totals"
grep -q "^Player  *Aces  *KHearts  *Queens  *Hearts  *Tricks  *Pat. 1  *Pat. 2  *TOTAL$" "$tmp/sheet.txt" &&
    ok "the booklet's columns" || bad "the booklet's columns"
# The sheet proper, without the key under it.
sed '/^.(. after a name marks/,$d' "$tmp/sheet.txt" >"$tmp/body.txt"
callers=$(grep -c "^  [A-Za-z]* (  " "$tmp/body.txt")
[ "$callers" = 8 ] && ok "a Caller marked in each Player Round" || bad "a Caller marked in each Player Round ($callers)"
grep -q "^  Hero (  " "$tmp/body.txt" && grep -q "^  Fringe  " "$tmp/body.txt" && ok "the players' names" ||
    bad "the players' names"
# The last overall scores are the game's totals.
want=$(sed 's/.*"totals":\[\([-0-9,]*\)\].*/\1/' "$tmp/game.json")
got=$(grep "^Overall Running Scores" "$tmp/body.txt" | tail -n 1 |
    awk '{printf "%d,%d,%d,%d", $4, $5, $6, $7}')
[ "$got" = "$want" ] && ok "the overall scores are the game's totals ($got)" ||
    bad "the overall scores are the game's totals ($got, want $want)"
# The page: self-contained, nothing fetched.
page="$out/scoresheet.html"
[ -s "$page" ] && ok "--html writes the page" || bad "--html writes the page"
head -c 15 "$page" | grep -q "<!DOCTYPE html>" && ok "the page is HTML" || bad "the page is HTML"
if grep -Eiq 'https?:|(src|href|xlink:href) *=|@import|<script|<link|url\( *[^#]' "$page"; then
    bad "the page fetches nothing"; grep -Eio '.{20}(https?:|src=|href=|@import|<script|<link|url\( *[^#]).{20}' "$page" | head -5
else
    ok "the page fetches nothing"
fi
grep -q "<title>Barbu score sheet: Hero, Buoy, Lief, Fringe</title>" "$page" && ok "the page has a title" ||
    bad "the page has a title"
# Every picture in the legend, drawn and named for screen readers.
for term in "Caller" "Egg" "Spider" "Wee Harry" "Dangly Spider" "Rumping Ripple" "First Choice" \
    "Second Choice" "Third Choice" "Piranha" "Banana" "Beef Tomato" "Cherry Tomato" \
    "Constipatience" "Fruit Bowl" "Virgin Round" "Full Participation"; do
    grep -q "role=\"img\" aria-label=\"$term\" class=\"pic[^\"]*\"><title>$term" "$page" ||
        bad "the page draws a picture named '$term'"
done
ok "the legend draws every picture with its name"
# Each mark the terminal shows is a picture on the page (the legend has one more).
pictures() { grep -o "aria-label=\"$1\"" "$page" | wc -l; }
tags() { grep -oE '\([a-z,H]+\)' "$tmp/body.txt" | tr -d '()' | tr ',' '\n' | grep -cx "$1"; }
kinds=0
for pair in "egg:Egg" "spider:Spider" "H:Wee Harry" "dangly:Dangly Spider" "piranha:Piranha" \
    "banana:Banana" "beef:Beef Tomato" "cherry:Cherry Tomato" "constip:Constipatience"; do
    tag=${pair%%:*}; term=${pair#*:}
    n=$(tags "$tag"); m=$(pictures "$term")
    [ "$m" = $((n + 1)) ] || bad "$n '$tag' tags in the terminal, $((m - 1)) pictures of '$term' on the page"
    [ "$n" -gt 0 ] && kinds=$((kinds + 1))
done
for pair in "FC:First Choice" "SC:Second Choice" "TC:Third Choice"; do
    tag=${pair%%:*}; term=${pair#*:}
    n=$(grep -oE "(^| )$tag[-+]?[0-9]" "$tmp/body.txt" | wc -l); m=$(pictures "$term")
    [ "$m" = $((n + 1)) ] || bad "$n '$tag' in the terminal, $((m - 1)) pictures of '$term' on the page"
    [ "$n" -gt 0 ] && kinds=$((kinds + 1))
done
for pair in "fruit bowl:Fruit Bowl" "virgin round:Virgin Round" "full participation:Full Participation"; do
    tag=${pair%%:*}; term=${pair#*:}
    n=$(grep -c "$tag" "$tmp/body.txt"); m=$(pictures "$term")
    [ "$m" = $((n + 1)) ] || bad "$n '$tag' rounds in the terminal, $((m - 1)) pictures on the page"
    [ "$n" -gt 0 ] && kinds=$((kinds + 1))
done
n=$(grep -c "(ripple\|,ripple" "$tmp/body.txt"); m=$(pictures "Rumping Ripple")
[ "$m" = $((n + 1)) ] || bad "$n rows with a Rumping Ripple in the terminal, $((m - 1)) on the page"
m=$(pictures "Caller")
[ "$m" = $((callers + 1)) ] || bad "$callers Callers in the terminal, $((m - 1)) on the page"
[ "$kinds" -ge 3 ] && ok "the page draws the terminal's marks ($kinds kinds on this sheet)" ||
    bad "the page draws the terminal's marks (only $kinds kinds on this sheet)"

# A record that stops: the sheet so far, the error with its line, no page.
awk '/^\[Score "/ && ++n == 2 { print "[Score \"N +1 E +0 S +0 W -1\"]"; next } { print }' \
    "$record" >"$tmp/cut.txt"
expect_status 1 "a record that stops replaying fails" "$barbu" scoresheet --html "$tmp/cut.html" "$tmp/cut.txt"
grep -q "cut.txt:[0-9][0-9]*: " "$tmp/err" && ok "its error names the line" || { bad "its error names the line"; cat "$tmp/err"; }
grep -q "P. Round 1" "$tmp/out" && ok "the sheet so far is printed" || bad "the sheet so far is printed"
[ ! -e "$tmp/cut.html" ] && ok "no page for a record that stops" || bad "no page for a record that stops"

# The page in a real browser: Chromium's screenshot, kept for people to look at.
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
    bad "chromium is installed (scripts/setup.sh check installs it)"
else
    rm -f "$out/scoresheet.png"
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$tmp/chromium" \
        --hide-scrollbars --screenshot="$out/scoresheet.png" --window-size=1280,2000 \
        "file://$page" >"$tmp/chromium.log" 2>&1 || { bad "chromium renders the page"; tail -5 "$tmp/chromium.log"; }
    png="$out/scoresheet.png"
    if [ -s "$png" ] && [ "$(od -An -c -j1 -N3 "$png" | tr -d ' ')" = PNG ]; then
        size=$(wc -c <"$png")
        dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $3 * 256 + $4 "x" $7 * 256 + $8}')
        [ "$dims" = 1280x2000 ] && [ "$size" -gt 100000 ] && ok "chromium's screenshot: $png ($dims, $size bytes)" ||
            bad "chromium's screenshot is plausible ($dims, $size bytes)"
    else
        bad "chromium writes a PNG screenshot"
    fi
fi

[ $fail = 0 ] && echo "scoresheet: all passed" || echo "scoresheet: FAILED"
exit $fail
