#!/bin/sh
# A short run of a fuzzer.  Without CORPUS_DIR it is seeded with the golden
# records (for fuzz_record); with it, with the files of that directory (for
# fuzz_proto: tests/fuzz/proto_corpus).
# usage: run.sh FUZZER [SECONDS] [CORPUS_DIR]
#        (default 20 seconds; FUZZ_SECONDS overrides)
set -eu
fuzzer=$1
seconds=${2:-${FUZZ_SECONDS:-20}}
seeds=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "$seeds" ]; then
    seeds=$(cd "$seeds" && pwd)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
if [ -n "$seeds" ]; then
    cp "$seeds"/* "$work/corpus/"
else
    cp "$here"/../golden/*.txt "$here"/../golden/bad/*.txt "$work/corpus/"
    [ -d "$here/corpus" ] && cp "$here"/corpus/* "$work/corpus/" 2>/dev/null || true
fi
cd "$work"
"$fuzzer" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 corpus 2>fuzz.log || {
    tail -50 fuzz.log
    # Keep what crashed, since the work directory goes.
    kept=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-artifacts.XXXXXX")
    cp crash-* leak-* timeout-* oom-* "$kept/" 2>/dev/null || true
    echo "fuzz: failing inputs kept in $kept"
    exit 1
}
grep -E "stat::number_of_executed_units|Done" fuzz.log | tail -2
echo "fuzz: ok"
