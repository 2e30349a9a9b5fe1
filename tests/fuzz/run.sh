#!/bin/sh
# A short run of the record-reader fuzzer, seeded with the golden records.
# usage: run.sh FUZZER [SECONDS]   (default 20 seconds; FUZZ_SECONDS overrides)
set -eu
fuzzer=$1
seconds=${2:-${FUZZ_SECONDS:-20}}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
cp "$here"/../golden/*.txt "$here"/../golden/bad/*.txt "$work/corpus/"
[ -d "$here/corpus" ] && cp "$here"/corpus/* "$work/corpus/" 2>/dev/null || true
cd "$work"
"$fuzzer" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 corpus 2>fuzz.log || { tail -50 fuzz.log; exit 1; }
grep -E "stat::number_of_executed_units|Done" fuzz.log | tail -2
echo "fuzz: ok"
