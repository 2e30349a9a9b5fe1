#!/bin/sh
# barbu verify: a keyed game's record checks against its key and
# commitment (the commitment is what b2sum computes from the key's bytes),
# a seeded record against its seed; a tampered hand, a wrong commitment, a
# changed cut and a withheld key are each refused with what differs.
# usage: verify.sh BARBU SOURCE_DIR
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
    if [ "$got" = "$want" ]; then ok "$what"; else bad "$what (exit $got, want $want)"; cat "$tmp/out" "$tmp/err"; fi
}
expect_text() { # expect_text FILE TEXT DESCRIPTION
    if grep -qF -- "$2" "$1"; then ok "$3"; else bad "$3"; echo "want: $2"; cat "$1"; fi
}

expect_status 0 "barbu verify --help" "$barbu" verify --help
expect_text "$tmp/out" "usage: barbu verify RECORD" "verify --help prints its usage"
"$barbu" --help | grep -q "^  verify " && ok "barbu --help lists verify" || bad "barbu --help lists verify"
expect_status 2 "verify without a record is a usage error" "$barbu" verify

key=8f3a0c1d2e4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeef
"$barbu" selfplay --key "$key" --rules fife --records "$tmp/fife" >/dev/null &&
    "$barbu" selfplay --key "$key" --records "$tmp/uk" >/dev/null &&
    "$barbu" selfplay --seed 7 --records "$tmp/seeded" >/dev/null || bad "selfplay writes the records"
fife=$tmp/fife/game-1.txt
uk=$tmp/uk/game-1.txt

# The commitment, computed by another program from the key's bytes.
commitment=$(printf '%s' "$key" | xxd -r -p | b2sum -l 256 | cut -d' ' -f1)
expect_text "$fife" "[Barbu \"3\"]" "a keyed record is format 3"
expect_text "$fife" "[Key \"$key\"]" "the record names its key"
expect_text "$fife" "[Commitment \"$commitment\"]" "the commitment is b2sum's BLAKE2b-256 of the key"
grep -q '^\[Seed' "$fife" && bad "a keyed record has no Seed tag" || ok "a keyed record has no Seed tag"

expect_status 0 "a keyed Fife record verifies" "$barbu" verify "$fife"
expect_text "$tmp/out" "the commitment $commitment is the BLAKE2b-256 hash of the key" "verify says it checked the commitment"
expect_text "$tmp/out" "dealt from the key committed to as $(echo "$commitment" | cut -c1-8)..." "verify says the deals are the key's"
expect_text "$tmp/out" "every cut" "verify checks the Fife game's cuts"
expect_text "$tmp/out" "every action legal" "verify replays the actions"
expect_status 0 "a keyed uk record verifies" "$barbu" verify "$uk"
expect_status 0 "a keyed record replays" "$barbu" replay "$uk"

# A seeded record, against its seed.
expect_status 0 "a seeded record verifies" "$barbu" verify "$tmp/seeded/game-7.txt"
expect_text "$tmp/out" "dealt from seed 7" "verify names the seed"

# A hand changed: two cards swapped between N and E in deal 2.
awk 'BEGIN{d=0} /^\[Deal "2"\]/{d=1}
     d==1 && /^\[Hands/ { split($0, a, "\""); split(a[2], h, " "); n=substr(h[1],3); e=h[2];
        cn=substr(n,length(n)); ce=substr(e,length(e));
        sub(/.$/, ce, n); sub(/.$/, cn, e);
        printf "[Hands \"N:%s %s %s %s\"]\n", n, e, h[3], h[4]; d=2; next } {print}' "$uk" >"$tmp/hand.txt"
cmp -s "$uk" "$tmp/hand.txt" && bad "the tampered record differs"
expect_status 1 "a tampered hand is refused" "$barbu" verify "$tmp/hand.txt"
expect_text "$tmp/err" "deal 2: N's hand in the record is" "the refusal names the deal and the seat"
expect_text "$tmp/err" "; the key deals" "the refusal says what the key deals"

# A commitment that is not the key's hash.
sed "s/\[Commitment \"$commitment\"\]/[Commitment \"$(printf '%s' "$key" | b2sum -l 256 | cut -d' ' -f1)\"]/" "$uk" >"$tmp/commit.txt"
expect_status 1 "a wrong commitment is refused" "$barbu" verify "$tmp/commit.txt"
expect_text "$tmp/err" "but the key's hash is $commitment" "the refusal gives both hashes"
expect_status 0 "replay alone does not check commitments" "$barbu" replay "$tmp/commit.txt"

# Another key: the deals are not the record's.
sed "s/\[Key \"$key\"\]/[Key \"$(echo "$key" | sed 's/f$/e/')\"]/" "$uk" >"$tmp/other.txt"
expect_status 1 "another key is refused" "$barbu" verify "$tmp/other.txt"

# A cut changed in the Fife game.
awk '/^\[Cuts\]/{c=1; print; next} c==1 && /: / { split($0, a, ": ");
        v = (a[2] == "2C") ? "3C" : "2C"; print a[1] ": " v; c=2; next } {print}' "$fife" >"$tmp/cut.txt"
expect_status 1 "a changed cut is refused" "$barbu" verify "$tmp/cut.txt"
expect_text "$tmp/err" ": the key cuts" "the refusal says what the key cuts"

# The first declarer changed.
first=$(sed -n 's/^\[First "\(.\)"\]/\1/p' "$uk")
other=N; [ "$first" = N ] && other=E
sed "s/^\[First \"$first\"\]/[First \"$other\"]/" "$uk" >"$tmp/first.txt"
expect_status 1 "a changed first declarer is refused" "$barbu" verify "$tmp/first.txt"
expect_text "$tmp/err" "the record says $other declares first; the key's draw makes it $first" "the refusal names both seats"

# A withheld key: the game is not over.
sed "s/\[Key \"$key\"\]/[Key \"withheld\"]/" "$uk" >"$tmp/withheld.txt"
expect_status 2 "a withheld key cannot be verified" "$barbu" verify "$tmp/withheld.txt"
expect_text "$tmp/err" "the key is withheld: the game is not over" "the refusal says why"
expect_status 0 "a record with its key withheld still replays" "$barbu" replay "$tmp/withheld.txt"

# Malformed: a Key without its Commitment, and a short key.
grep -v '^\[Commitment' "$uk" >"$tmp/nocommit.txt"
expect_status 2 "a Key without a Commitment is malformed" "$barbu" verify "$tmp/nocommit.txt"
expect_text "$tmp/err" "a Key tag goes with a Commitment tag" "the error says what is missing"
sed "s/\[Key \"$key\"\]/[Key \"abc\"]/" "$uk" >"$tmp/short.txt"
expect_status 2 "a short key is malformed" "$barbu" verify "$tmp/short.txt"
expect_text "$tmp/err" "the key must be 64 hex digits" "the error says what a key is"
expect_status 2 "selfplay refuses a short key" "$barbu" selfplay --key abc

exit $fail
