#!/bin/sh
# barbu analyse: the text and the JSON of an analysis of a golden record (the
# JSON's shape as docs/club.md gives it, checked by python3), --help, a
# record that does not replay (exit 2 and the line of the fault, as the
# reader says it), a record that does not parse, and bad options.
# usage: analyse.sh BARBU SOURCE_DIR
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
    if [ "$got" = "$want" ]; then ok "$what"; else bad "$what (exit $got, want $want)"; cat "$tmp/out" "$tmp/err"; fi
}
expect_text() { # expect_text FILE TEXT DESCRIPTION
    if grep -qF -- "$2" "$1"; then ok "$3"; else bad "$3"; echo "want: $2"; cat "$1"; fi
}

expect_status 0 "barbu analyse --help" "$barbu" analyse --help
expect_text "$tmp/out" "usage: barbu analyse RECORD" "analyse --help prints its usage"
expect_text "$tmp/out" "--level L" "analyse --help names the levels"
expect_text "$tmp/out" "1 when the analysis failed" "analyse --help gives exit status 1"
expect_text "$tmp/out" "2 for bad arguments" "analyse --help gives exit status 2"
expect_text "$tmp/out" "or - for the standard" "analyse --help says - is the standard input"
"$barbu" --help | grep -q "^  analyse " && ok "barbu --help lists analyse" || bad "barbu --help lists analyse"
expect_status 2 "analyse without a record is a usage error" "$barbu" analyse

record=$src/tests/golden/bid-words.txt
# The text: the header, then the mistakes worst first.
expect_status 0 "analyse a golden record (easy)" "$barbu" analyse "$record" --level easy --seed 3
expect_text "$tmp/out" "bid-words.txt: seat S, level easy" "the header names the seat and the level"
expect_text "$tmp/out" "14 decisions" "the header counts S's decisions"
expect_text "$tmp/out" "total expected cost" "the header gives the total cost"
expect_text "$tmp/out" "The costliest decisions first:" "the mistakes are listed"
expect_text "$tmp/out" "the expert prefers" "each mistake names the expert's choice"
grep -q "^Every decision:" "$tmp/out" && bad "without --all only the mistakes" || ok "without --all only the mistakes"
cp "$tmp/out" "$tmp/text1"
expect_status 0 "analyse --all" "$barbu" analyse "$record" --level easy --seed 3 --all
expect_text "$tmp/out" "Every decision:" "--all lists every decision"
expect_text "$tmp/out" "deal 1, step 3: S doubles W, redoubles E" "a decision in the viewer's words"
expect_status 0 "the same seed on two threads" "$barbu" analyse "$record" --level easy --seed 3 --threads 2
cmp -s "$tmp/out" "$tmp/text1" && ok "the same analysis on two threads" || bad "the same analysis on two threads"

# "-": the record from the standard input, the same analysis.
"$barbu" analyse - --level easy --seed 3 <"$record" >"$tmp/stdin" 2>"$tmp/err" &&
    sed "s|^stdin: |$record: |" "$tmp/stdin" | cmp -s - "$tmp/text1" &&
    ok "- reads the record from the standard input" || { bad "- reads the record from the standard input"; cat "$tmp/stdin" "$tmp/err"; }

# The JSON, its shape checked member by member.
expect_status 0 "analyse --json" "$barbu" analyse "$record" --level easy --seed 3 --json --seat S
if python3 - "$tmp/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["seat"] == "S" and d["level"] == "easy", d
assert d["player"] is None or isinstance(d["player"], str)
assert d["decisions"] == len(d["items"]) == 14
assert isinstance(d["total_cost"], (int, float))
assert abs(d["total_cost"] - sum(i["cost"] for i in d["items"])) < 0.05
costs = [d["items"][k]["cost"] for k in d["worst"]]
assert costs == sorted(costs, reverse=True) and all(c >= 0.01 for c in costs)
assert all(i["cost"] < 0.01 for k, i in enumerate(d["items"]) if k not in d["worst"])
for it in d["items"]:
    for key in ("deal", "step", "kind", "chosen", "best", "cost", "words", "options", "forced"):
        assert key in it, (key, it)
    assert it["cost"] >= 0
    opts = it["options"]
    assert opts and all("action" in o and "value" in o for o in opts)
    assert it["best"] == opts[0]["action"]
    assert opts[it["chosen_index"]]["action"] == it["chosen"]
    assert abs(it["cost"] - (opts[0]["value"] - opts[it["chosen_index"]]["value"])) < 0.02
    if it["kind"] == "play":
        assert len(it["chosen"]) == 2 and it["words"].startswith("S plays ")
        assert all(isinstance(o["cards"], list) for o in opts)
bid = d["items"][0]
assert bid["kind"] == "bid" and bid["chosen"] == "doubles W, redoubles E", bid
EOF
then ok "the JSON has the documented shape"; else bad "the JSON has the documented shape"; cat "$tmp/out"; fi
# Every kind of decision named in the JSON: Chinese Poker's rows (the option
# chosen is the rows set), the Fife game's Calls, Pass-ons and cuts.
for r in chinese-rows-scoop fife-worked-silly-round; do
    "$barbu" analyse "$src/tests/golden/$r.txt" --level easy --json >"$tmp/$r.json" 2>"$tmp/err" ||
        bad "analyse $r --json"
    if python3 - "$tmp/$r.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
kinds = set()
for it in d["items"]:
    opts = it["options"]
    assert opts[it["chosen_index"]]["action"] == it["chosen"], it
    assert it["best"] == opts[0]["action"] and it["cost"] >= 0
    kinds.add(it["kind"])
    if it["kind"] == "arrange":
        assert all(set(o["rows"]) == {"back", "middle", "front"} for o in opts)
        assert it["chosen"].count(" / ") == 2
    if it["kind"] == "pass_on":
        assert all(len(o["cards"]) == 3 for o in opts)
want = {"arrange", "bid"} if "chinese" in sys.argv[1] else {"declare", "pass_on", "cut", "play"}
assert kinds >= want, kinds
EOF
    then ok "the JSON names $r's decisions"; else bad "the JSON names $r's decisions"; fi
done
if command -v jq >/dev/null; then
    [ "$(jq -r '.items[0].step' "$tmp/out")" = 3 ] && ok "jq reads the first decision's step" ||
        bad "jq reads the first decision's step"
fi

# Every mistake listed shows the option chosen, even beyond the first four
# (a Patience play of two cards, the sixth of seven options).
expect_status 0 "analyse a Fife game" "$barbu" analyse "$src/tests/golden/fife-earlier-reading.txt" --level easy
mistakes=$(sed -n 's/.* points, \([0-9]*\) mistakes$/\1/p' "$tmp/out")
chosen=$(grep -c "(chosen)" "$tmp/out")
[ -n "$mistakes" ] && [ "$mistakes" -gt 0 ] && [ "$chosen" = "$mistakes" ] &&
    ok "each mistake shows its chosen option ($chosen)" ||
    { bad "each mistake shows its chosen option ($chosen of $mistakes)"; cat "$tmp/out"; }
grep -qE "\.\.\., JS JH [-+][0-9.]+ \(chosen\)" "$tmp/out" && ok "the chosen option beyond the first four" ||
    bad "the chosen option beyond the first four"
# Output that cannot be written is a failure.
if [ -w /dev/full ]; then
    "$barbu" analyse "$record" --level easy --seed 3 >/dev/full 2>"$tmp/err"
    [ $? = 1 ] && ok "a full disk: exit 1" || bad "a full disk: exit 1"
    expect_text "$tmp/err" "cannot write the analysis" "a full disk: said so"
fi

# The default seat: the one a person played (the tags), else S.
sed 's/^\[Rules/[North "random"]\n[East "ann"]\n[South "medium bot S"]\n[West "easy"]\n[Rules/' \
    "$record" >"$tmp/tagged.txt"
expect_status 0 "analyse a record whose tags name one person" "$barbu" analyse "$tmp/tagged.txt" --level easy
expect_text "$tmp/out" "seat E (ann)" "the default seat is the person's"

# Records that do not replay or parse: the reader's line and fault, exit 2.
expect_status 2 "a record that does not replay" "$barbu" analyse "$src/tests/golden/bad/must-follow.txt"
expect_text "$tmp/err" "$(cut -d: -f2- "$src/tests/golden/bad/must-follow.err" | cut -c2-)" "the fault as the replay says it"
grep -q "must-follow.txt:[0-9][0-9]*: " "$tmp/err" && ok "with the line of the fault" || { bad "with the line of the fault"; cat "$tmp/err"; }
printf '%% barbu game record\n[Barbu "1"]\n[Rules "uk"\n' >"$tmp/broken.txt"
expect_status 2 "a record that does not parse" "$barbu" analyse "$tmp/broken.txt"
grep -q "broken.txt:3: " "$tmp/err" && ok "its line" || { bad "its line"; cat "$tmp/err"; }
expect_status 2 "a missing file" "$barbu" analyse "$tmp/none.txt"

# Bad options.
expect_status 2 "a bad seat" "$barbu" analyse "$record" --seat X
expect_text "$tmp/err" "--seat takes N, E, S or W, not 'X'" "the bad seat is named"
expect_status 2 "a bad level" "$barbu" analyse "$record" --level expert
expect_text "$tmp/err" "--level takes easy, medium or hard, not 'expert'" "the bad level is named"
expect_status 2 "a bad seed" "$barbu" analyse "$record" --seed x1
expect_status 2 "an unknown option" "$barbu" analyse "$record" --fast

exit $fail
