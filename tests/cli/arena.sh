#!/bin/sh
# barbu arena as a user runs it: duplicate matches between computer players,
# their statistics in JSON, reproducibility over --jobs, and its errors.
# usage: arena.sh BARBU SOURCE_DIR
set -u
barbu=$1
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
# check DESCRIPTION FILE PYTHON-EXPRESSION: the expression, of the JSON
# object j read from FILE, must be true.
check() {
    what=$1; file=$2; expr=$3
    if python3 -c "import json, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if ($expr) else 1)" \
        "$file" 2>"$tmp/py"; then ok "$what"; else bad "$what"; cat "$tmp/py"; fi
}

expect_status 0 "barbu arena --help" "$barbu" arena --help
grep -q "usage: barbu arena" "$tmp/out" && ok "--help prints the usage" || bad "--help prints the usage"
"$barbu" --help | grep -q "arena" && ok "barbu --help lists arena" || bad "barbu --help lists arena"

# The match: heuristic players beat random ones on the same cards.
expect_status 0 "a match runs on one thread" "$barbu" arena --deal-sets 40 --jobs 1 --json heuristic random
cp "$tmp/out" "$tmp/j1.json"
expect_status 0 "a match runs on two threads" "$barbu" arena --deal-sets 40 --jobs 2 --json heuristic random
cp "$tmp/out" "$tmp/j2.json"
check "the output is one JSON object with the run's figures" "$tmp/j1.json" \
    "j['deal_sets'] == 40 and j['plays'] == 80 and j['lineup'] == ['heuristic', 'random'] * 2 and len(j['players']) == 2 and j['declare'] == 'fixed' and j['contract'] is None"
check "heuristic is ahead of the table mean" "$tmp/j1.json" \
    "j['players'][0]['player'] == 'heuristic' and j['players'][0]['points']['mean'] > 0"
check "random is behind it" "$tmp/j1.json" \
    "j['players'][1]['player'] == 'random' and j['players'][1]['points']['mean'] < 0"
check "the two players' means sum to zero" "$tmp/j1.json" \
    "abs(j['players'][0]['points']['mean'] + j['players'][1]['points']['mean']) < 1e-3"
check "the interval is positive and counts 40 deal sets" "$tmp/j1.json" \
    "all(p['points']['ci95'] > 0 and p['points']['deal_sets'] == 40 for p in j['players'])"
check "there are figures by contract, doubling gain and times" "$tmp/j1.json" \
    "all(len(p['contracts']) >= 5 and p['doubling_gain']['deal_sets'] == 40 and p['decisions'] > 0 and p['ms_max'] >= p['ms_median'] >= 0 and 'regret' not in p for p in j['players'])"
check "contract plays add up to the plays" "$tmp/j1.json" \
    "all(sum(c['plays'] for c in p['contracts']) == 80 for p in j['players'])"
# Only the clock may differ between --jobs 1 and --jobs 2.
if python3 - "$tmp/j1.json" "$tmp/j2.json" <<'EOF'
import json, sys
def strip(path):
    j = json.load(open(path))
    del j['wall_seconds']
    for p in j['players']:
        for k in ('ms_mean', 'ms_median', 'ms_max'):
            del p[k]
    return j
sys.exit(0 if strip(sys.argv[1]) == strip(sys.argv[2]) else 1)
EOF
then ok "the figures do not depend on --jobs"; else bad "the figures do not depend on --jobs"; fi
expect_status 0 "the same seed gives the same match" "$barbu" arena --deal-sets 40 --jobs 2 --json heuristic random
python3 -c "import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); sys.exit(a['players'][0]['points']!=b['players'][0]['points'])" \
    "$tmp/j2.json" "$tmp/out" && ok "a match is reproducible" || bad "a match is reproducible"
expect_status 0 "another seed runs" "$barbu" arena --deal-sets 40 --seed 7 --json heuristic random
python3 -c "import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); sys.exit(a['players'][0]['points']==b['players'][0]['points'])" \
    "$tmp/j1.json" "$tmp/out" && ok "another seed gives other deals" || bad "another seed gives other deals"
# --first: a match in two parts is the same deal sets as the whole, so the
# two halves' means (points and doubling gain) average to the whole's.
expect_status 0 "--first 0, the first half" "$barbu" arena --deal-sets 20 --first 0 --json heuristic random
cp "$tmp/out" "$tmp/h1.json"
expect_status 0 "--first 20, the second half" "$barbu" arena --deal-sets 20 --first 20 --json heuristic random
cp "$tmp/out" "$tmp/h2.json"
python3 - "$tmp/j1.json" "$tmp/h1.json" "$tmp/h2.json" <<'EOF2'
import json, sys
w, a, b = (json.load(open(f)) for f in sys.argv[1:])
ok = a['first'] == 0 and b['first'] == 20 and w['first'] == 0 and b['deal_sets'] == 20
for p in range(2):
    mw = w['players'][p]['points']['mean']
    mh = (a['players'][p]['points']['mean'] + b['players'][p]['points']['mean']) / 2
    ok = ok and abs(mw - mh) < 1e-3
    dw = w['players'][p]['doubling_gain']['mean']
    dh = (a['players'][p]['doubling_gain']['mean'] + b['players'][p]['doubling_gain']['mean']) / 2
    ok = ok and abs(dw - dh) < 1e-3
ok = ok and a['players'][0]['points'] != b['players'][0]['points']
sys.exit(0 if ok else 1)
EOF2
[ $? = 0 ] && ok "--first: two halves make the whole" || bad "--first: two halves make the whole"
expect_status 0 "--first in the table says which deal sets" "$barbu" arena --deal-sets 2 --first 5 heuristic random
grep -q "deal sets 5 to 6 of the seed" "$tmp/out" && ok "the table names the deal sets" || { bad "the table names the deal sets"; cat "$tmp/out"; }

# The table for people.
expect_status 0 "the table" "$barbu" arena --deal-sets 8 heuristic random
grep -q "all deals" "$tmp/out" && grep -q "doubling gain" "$tmp/out" && grep -q "^    no-" "$tmp/out" &&
    ok "the table has the overall, contract and doubling lines" || { bad "the table has its lines"; cat "$tmp/out"; }

# Fixed declarations (the default): every rotation plays the same contract,
# so each deal set adds one play of one contract to each player's figures.
check "each deal set is one contract for every rotation" "$tmp/j1.json" \
    "all(sum(c['deal_sets'] for c in p['contracts']) == 40 for p in j['players'])"
# --free: each declarer chooses, so a deal set's rotations may differ.
expect_status 0 "--free" "$barbu" arena --deal-sets 40 --free --json heuristic random
check "--free is reported, and its contracts differ between rotations" "$tmp/out" \
    "j['declare'] == 'free' and sum(c['deal_sets'] for c in j['players'][0]['contracts']) > 40"
# --contract: one contract only, at any point of the game.
expect_status 0 "--contract trumps" "$barbu" arena --deal-sets 30 --contract trumps --json heuristic random
check "--contract plays that contract alone" "$tmp/out" \
    "j['contract'] == 'trumps' and [c['contract'] for c in j['players'][0]['contracts']] == ['trumps'] and j['players'][0]['contracts'][0]['deal_sets'] == 30"
expect_status 0 "--contract at King, whose contracts run in a set order" "$barbu" arena --rules king --deal-sets 8 --contract trumps --json heuristic random
expect_status 2 "an unknown contract is a usage error" "$barbu" arena --contract nowhere heuristic random
grep -q "no contract 'nowhere'" "$tmp/err" && grep -q "no-tricks" "$tmp/err" && ok "the error lists the contracts" || bad "the error lists the contracts"
expect_status 2 "--contract with --free is a usage error" "$barbu" arena --contract trumps --free heuristic random
# Tuned players, for measurement: a level with settings changed.
expect_status 0 "a tuned player" "$barbu" arena --deal-sets 4 --json medium:budget=20000,max_deals=8 easy
check "a tuned player is named by its spec" "$tmp/out" "j['players'][0]['player'] == 'medium:budget=20000,max_deals=8'"
expect_status 2 "a bad setting is a usage error" "$barbu" arena medium:budget=0 easy

# Four players by seat, every rotation distinct.
expect_status 0 "four players" "$barbu" arena --deal-sets 6 --json heuristic random random easy
check "four distinct rotations, three players" "$tmp/out" \
    "j['plays'] == 24 and [p['player'] for p in j['players']] == ['heuristic', 'random', 'easy'] and j['players'][1]['seats'] == 2"
check "each pair's difference is reported, antisymmetric and the difference of the means" "$tmp/out" \
    "all(len(p['versus']) == 2 and all(v['deal_sets'] == 6 for v in p['versus']) for p in j['players']) and abs(j['players'][0]['versus'][0]['mean'] + j['players'][1]['versus'][0]['mean']) < 1e-3 and abs(j['players'][0]['versus'][0]['mean'] - (j['players'][0]['points']['mean'] - j['players'][1]['points']['mean'])) < 1e-3"
expect_status 0 "four players, the table" "$barbu" arena --deal-sets 6 heuristic random random easy
grep -q "less random" "$tmp/out" && grep -q "less heuristic" "$tmp/out" && ok "the table has the head-to-head lines" || { bad "the table has the head-to-head lines"; cat "$tmp/out"; }

# Declaration regret: a replay per alternative declaration.
expect_status 0 "--regret" "$barbu" arena --deal-sets 8 --regret --json heuristic random
check "--regret reports declarations and a regret that is never negative" "$tmp/out" \
    "j['regret'] and sum(p['regret']['declarations'] for p in j['players']) > 0 and all(p['regret']['mean'] is None or p['regret']['mean'] >= 0 for p in j['players'])"
expect_status 0 "--regret at King, whose declarations name trumps" "$barbu" arena --rules king --deal-sets 4 --regret --json heuristic random

# Other rule sets: the Fife game's combined Calls and a game shorter than its most.
expect_status 0 "the Fife game" "$barbu" arena --rules fife --deal-sets 12 --json heuristic random
check "Fife figures sum to zero" "$tmp/out" \
    "abs(j['players'][0]['points']['mean'] + j['players'][1]['points']['mean']) < 1e-3"
expect_status 0 "Chinese Poker" "$barbu" arena --rules chinese --deal-sets 9 --json heuristic random

# The levels as they were before issue 26, for measuring (tuned-only kinds).
expect_status 0 "medium0 is accepted" "$barbu" arena --deal-sets 1 --json medium0 heuristic
check "medium0 has figures" "$tmp/out" "j['players'][0]['player'] == 'medium0' and j['players'][0]['decisions'] > 0"

# The reference player that sees every card.
expect_status 0 "omniscient is accepted" "$barbu" arena --deal-sets 2 --json omniscient heuristic
check "omniscient has figures" "$tmp/out" "j['players'][0]['player'] == 'omniscient' and j['players'][0]['decisions'] > 0"

# Errors.
expect_status 2 "an unknown player is a usage error" "$barbu" arena heuristic wizard
grep -q "unknown player 'wizard'" "$tmp/err" && ok "the error names the player" || bad "the error names the player"
expect_status 2 "unknown rules are a usage error" "$barbu" arena --rules nowhere heuristic random
grep -q "'nowhere'" "$tmp/err" && ok "the error names the rules" || bad "the error names the rules"
expect_status 2 "three players are a usage error" "$barbu" arena heuristic random random
expect_status 2 "a bad --deal-sets is a usage error" "$barbu" arena --deal-sets 0 heuristic random
expect_status 2 "a negative --first is a usage error" "$barbu" arena --first -1 heuristic random
grep -q "from 0 to" "$tmp/err" && ok "it says what --first takes" || bad "it says what --first takes"
expect_status 2 "an unknown option is a usage error" "$barbu" arena --frob heuristic random

exit $fail
